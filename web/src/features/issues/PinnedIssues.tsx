import { useTranslation } from 'react-i18next'
import { type Repository, repoHref } from '@/lib/forge/api'
import { IssueRow } from './IssueRow'
import { usePinned } from './tracker'

/** A repository's pinned issues, at the top of its issue list; nothing when none are pinned. */
export function PinnedIssues({ repo }: { repo: Repository }) {
  const { t } = useTranslation('tracker')
  const o = repo.owner.login
  const pinned = usePinned(o, repo.name)
  const list = pinned.data ?? []
  if (list.length === 0) return null
  return (
    <section aria-labelledby="pinned-issues" className="pinned-issues">
      <h2 id="pinned-issues">{t('pin.heading')}</h2>
      <ul className="issue-list plain-list">
        {list.map((issue) => (
          <IssueRow key={issue.id} issue={issue} href={`${repoHref.section(o, repo.name, issue.pull_request ? 'pulls' : 'issues')}/${issue.number}`} />
        ))}
      </ul>
    </section>
  )
}
