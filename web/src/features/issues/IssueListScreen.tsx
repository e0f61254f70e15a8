import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { type Repository, repoHref } from '@/lib/forge/api'
import { RepoPage } from '@/features/repositories'
import { Paged } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useIssues } from './api'
import { IssueRow } from './IssueRow'
import { issueFilterOf, ListFilterBar, StateTabs, useListFilters } from './ListFilters'
import { PinnedIssues } from './PinnedIssues'
import './issues.css'

export const ISSUES_PER_PAGE = 25

/** A repository's issues: open, closed or all, filtered and ordered as the URL says, a page at a time. */
export default function IssueListScreen() {
  return <RepoPage section="issues">{(repo) => <IssueList repo={repo} />}</RepoPage>
}

function IssueList({ repo }: { repo: Repository }) {
  const { t } = useTranslation('issues')
  const { t: tt } = useTranslation('tracker')
  const o = repo.owner.login
  const filters = useListFilters()
  const issues = useIssues(o, repo.name, issueFilterOf(filters, 'issues'), filters.page, ISSUES_PER_PAGE)
  useDocumentTitle(t('list.title', { repo: repo.full_name }))
  const empty = filters.active ? t('filters.noMatch.issues') : t('list.empty')
  return (
    <div className="stack">
      <PageHeader
        title={t('list.heading')}
        actions={
          <>
            <PreloadLink className="btn btn-outline btn-md" to={repoHref.section(o, repo.name, 'milestones')}>
              {tt('milestones.heading')}
            </PreloadLink>
            <PreloadLink className="btn btn-primary btn-md" to={repoHref.section(o, repo.name, 'issues/new')}>
              {t('list.new')}
            </PreloadLink>
          </>
        }
      />
      <PinnedIssues repo={repo} />
      <div className="issue-filters">
        <StateTabs filters={filters} label={t('list.stateFilter')} />
        <ListFilterBar repo={repo} filters={filters} kind="issues" />
      </div>
      <Paged query={issues} page={filters.page} onPage={filters.setPage} limit={ISSUES_PER_PAGE} label={t('list.heading')} empty={empty}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState message={empty} />
          ) : (
            <ul className="issue-list plain-list">
              {items.map((issue) => (
                <IssueRow key={issue.id} issue={issue} href={`${repoHref.section(o, repo.name, 'issues')}/${issue.number}`} />
              ))}
            </ul>
          )
        }
      </Paged>
    </div>
  )
}
