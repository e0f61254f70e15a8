import { type UseMutationResult } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { Paged } from '@/components/Lists'
import { QueryState } from '@/components/QueryState'
import { errorText } from '@/lib/http'
import { type HiddenItem, PAGE_SIZE, type Suspension, useHiddenItems, useLift, useSuspensions, useUnhide } from './api'
import { ModDialog } from './ModDialog'

/** The moderators' list of hidden items, each with Unhide. */
export function HiddenList() {
  const { t, i18n } = useTranslation('moderation')
  const [page, setPage] = useState(1)
  const query = useHiddenItems(page)
  const unhide = useUnhide()
  const [confirm, setConfirm] = useState<HiddenItem | null>(null)
  return (
    <section className="stack" aria-labelledby="hidden-title">
      <h2 id="hidden-title">{t('hiddenList.title')}</h2>
      <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('hiddenList.title')} empty={t('hiddenList.empty')}>
        {(items) => (
          <ul className="report-list">
            {items.map((h) => (
              <li key={`${h.kind}/${h.target}`}>
                <Card as="article" className="report-row" aria-label={h.target_label}>
                  <div>
                    <span className="badge">{t(`kind.${h.kind}`)}</span> <strong>{h.target_label}</strong> · {h.reason}
                  </div>
                  <div className="muted">{new Date(h.created_at).toLocaleString(i18n.language)}</div>
                  <div className="button-row">
                    <Button size="sm" variant="outline" onClick={() => setConfirm(h)}>
                      {t('hiddenList.unhide')}
                    </Button>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </Paged>
      {confirm && (
        <Confirm
          title={t('hiddenList.confirm', { what: confirm.target_label })}
          action={t('hiddenList.unhide')}
          mutation={unhide}
          run={() => unhide.mutate(confirm, { onSuccess: () => setConfirm(null) })}
          onClose={() => setConfirm(null)}
        />
      )}
    </section>
  )
}

/** The moderators' list of suspended accounts, each with Lift. */
export function SuspensionList() {
  const { t, i18n } = useTranslation('moderation')
  const query = useSuspensions()
  const lift = useLift()
  const [confirm, setConfirm] = useState<Suspension | null>(null)
  return (
    <section className="stack" aria-labelledby="suspensions-title">
      <h2 id="suspensions-title">{t('suspensions.title')}</h2>
      <QueryState query={query}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t('suspensions.empty')} />
          ) : (
            <ul className="report-list">
              {list.map((s) => (
                <li key={s.address}>
                  <Card as="article" className="report-row" aria-label={s.username || s.address}>
                    <div>
                      <strong>{s.username || s.address}</strong> · {s.reason}
                    </div>
                    <div className="muted">
                      {s.address} · {new Date(s.created_at).toLocaleString(i18n.language)}
                    </div>
                    <div className="button-row">
                      <Button size="sm" variant="outline" onClick={() => setConfirm(s)}>
                        {t('suspensions.lift')}
                      </Button>
                    </div>
                  </Card>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {confirm && (
        <Confirm
          title={t('suspensions.confirm', { who: confirm.username || confirm.address })}
          action={t('suspensions.lift')}
          mutation={lift}
          run={() => lift.mutate(confirm.address, { onSuccess: () => setConfirm(null) })}
          onClose={() => setConfirm(null)}
        />
      )}
    </section>
  )
}

function Confirm<V>({
  title,
  action,
  mutation,
  run,
  onClose,
}: {
  title: string
  action: string
  mutation: UseMutationResult<void, Error, V>
  run: () => void
  onClose: () => void
}) {
  const { t } = useTranslation('moderation')
  return (
    <ModDialog title={title} onClose={onClose}>
      {mutation.isError && (
        <p className="alert-error" role="alert">
          {errorText(mutation.error)}
        </p>
      )}
      <div className="button-row">
        <Button size="sm" onClick={run} disabled={mutation.isPending}>
          {action}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          {t('report.cancel')}
        </Button>
      </div>
    </ModDialog>
  )
}
