import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { useForgeFormat } from '@/lib/forge/format'
import type { Issue } from './api'
import { LabelBadge, StateBadge, stateKind, UserLink } from './CommentCard'
import './issues.css'

/** One row of an issue or pull request list. */
export function IssueRow({ issue, href, merged = false }: { issue: Issue; href: string; merged?: boolean }) {
  const { t } = useTranslation('issues')
  const fmt = useForgeFormat()
  return (
    <li className="card card-sm issue-row">
      <StateBadge kind={stateKind(issue, merged)} />
      <div className="issue-row-main">
        <PreloadLink to={href} className="issue-row-title">
          {issue.title}
        </PreloadLink>{' '}
        {issue.labels.map((l) => (
          <LabelBadge key={l.id} label={l} />
        ))}
        <p className="muted issue-row-meta">
          #{issue.number} · {t('list.opened', { when: fmt.ago(issue.created_at) })} <UserLink user={issue.user} />
        </p>
      </div>
      {issue.comments > 0 && (
        <span className="muted issue-row-comments" aria-label={t('list.comments', { count: issue.comments })}>
          <CommentIcon /> {fmt.count(issue.comments)}
        </span>
      )}
    </li>
  )
}

/** A speech bubble drawn as SVG: an emoji renders as a box without an emoji font. */
function CommentIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" className="issue-row-comments-icon">
      <path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" />
    </svg>
  )
}
