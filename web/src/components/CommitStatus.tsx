import { useTranslation } from 'react-i18next'
import { type CombinedStatus, type StatusState, safeTarget, useCombinedStatus } from '@/lib/forge/statuses'
import './statuses.css'

const ICONS: Record<StatusState, string> = { success: '✓', failure: '✗', error: '✗', warning: '!', pending: '●' }

/**
 * A commit's checks as one icon (the combined state) that opens, by click or
 * keyboard, a popover listing each context's latest status. Nothing when no
 * check reported.
 */
export function CommitStatusIcon({ owner, repo, sha }: { owner: string; repo: string; sha: string }) {
  const status = useCombinedStatus(owner, repo, sha)
  if (!status.data || status.data.total_count === 0 || status.data.state === '') return null
  return <StatusPopover combined={status.data} />
}

function StatusPopover({ combined }: { combined: CombinedStatus }) {
  const { t } = useTranslation('statuses')
  const state = combined.state as StatusState
  return (
    <details className="commit-status">
      <summary className={`status-icon status-${state}`} aria-label={t('summary', { state: t(`state.${state}`), count: combined.total_count })}>
        <span aria-hidden="true">{ICONS[state]}</span>
      </summary>
      <div className="status-popover" role="group" aria-label={t('heading')}>
        <p className="status-popover-title">{t('heading')}</p>
        <ul>
          {combined.statuses.map((s) => {
            const href = safeTarget(s.target_url)
            return (
              <li key={s.id}>
                <span className={`status-icon status-${s.status}`} aria-hidden="true">
                  {ICONS[s.status]}
                </span>{' '}
                <strong>{s.context}</strong> <span className="muted">{t(`state.${s.status}`)}</span>
                {s.description && <span className="muted"> — {s.description}</span>}{' '}
                {href && (
                  <a href={href} target="_blank" rel="noopener noreferrer nofollow">
                    {t('details')}
                  </a>
                )}
              </li>
            )
          })}
        </ul>
      </div>
    </details>
  )
}
