import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@/components/Dialog'
import { SHORTCUTS } from './shortcuts'

/** The list of a repository's keyboard shortcuts ("?"). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('code')
  return (
    <Dialog title={t('shortcuts.title')} description={<p>{t('shortcuts.intro')}</p>} closeLabel={t('shortcuts.close')} onClose={onClose}>
      <dl className="shortcut-list">
        {SHORTCUTS.map((s) => (
          <div key={s.action}>
            <dt>
              {s.keys.map((k, i) => (
                <Fragment key={k}>
                  {i > 0 && <span className="muted"> {t('shortcuts.then')} </span>}
                  <kbd>{k}</kbd>
                </Fragment>
              ))}
            </dt>
            <dd>{t(`shortcuts.action.${s.action}`)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  )
}
