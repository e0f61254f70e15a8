import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import { useSettings } from './api'

/** The settings the node runs with (serve's flags), read-only, without secrets. */
export function SettingsTab() {
  const { t } = useTranslation('admin')
  const query = useSettings()
  return (
    <div className="stack">
      <p className="muted">{t('settings.lead')}</p>
      <QueryState query={query}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t('settings.empty')} />
          ) : (
            <table className="data admin-table" aria-label={t('settings.title')}>
              <thead>
                <tr>
                  <th scope="col">{t('settings.name')}</th>
                  <th scope="col">{t('settings.value')}</th>
                  <th scope="col">{t('settings.env')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((s) => (
                  <tr key={s.name}>
                    <td>
                      <code>--{s.name}</code>
                    </td>
                    <td>{s.value || <span className="muted">{t('settings.unset')}</span>}</td>
                    <td>{s.env && <code>{s.env}</code>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </div>
  )
}
