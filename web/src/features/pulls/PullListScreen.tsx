import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { issueFilterOf, IssueRow, ListFilterBar, StateTabs, useIssues, useListFilters } from '@/features/issues'
import { type Repository, repoHref } from '@/lib/forge/api'
import { RepoPage } from '@/features/repositories'
import { Paged } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { NoPullRequests } from './EmptyStates'
import './pulls.css'

export const PULLS_PER_PAGE = 25

/**
 * A repository's pull requests, open, closed or all, filtered and ordered
 * as the URL says, a page at a time. The list reads the issue route with
 * type=pulls, which filters by assignee too (Gitea's pull list does not).
 */
export default function PullListScreen() {
  return <RepoPage section="pulls">{(repo) => <PullList repo={repo} />}</RepoPage>
}

function PullList({ repo }: { repo: Repository }) {
  const { t } = useTranslation('pulls')
  const { t: ti } = useTranslation('issues')
  const o = repo.owner.login
  const filters = useListFilters()
  const pulls = useIssues(o, repo.name, issueFilterOf(filters, 'pulls'), filters.page, PULLS_PER_PAGE)
  useDocumentTitle(t('list.title', { repo: repo.full_name }))
  return (
    <div className="stack">
      <PageHeader
        title={t('list.heading')}
        actions={
          <PreloadLink className="btn btn-primary btn-md" to={repoHref.section(o, repo.name, 'pulls/new')}>
            {t('list.new')}
          </PreloadLink>
        }
      />
      <div className="issue-filters">
        <StateTabs filters={filters} label={t('list.stateFilter')} />
        <ListFilterBar repo={repo} filters={filters} kind="pulls" />
      </div>
      <Paged
        query={pulls}
        page={filters.page}
        onPage={filters.setPage}
        limit={PULLS_PER_PAGE}
        label={t('list.heading')}
        empty={filters.active ? ti('filters.noMatch.pulls') : t('list.empty')}
      >
        {(items) =>
          items.length === 0 ? (
            filters.active ? (
              <EmptyState message={ti('filters.noMatch.pulls')} />
            ) : (
              <NoPullRequests />
            )
          ) : (
            <ul className="issue-list plain-list">
              {items.map((pr) => (
                <IssueRow key={pr.id} issue={pr} merged={pr.pull_request?.merged ?? false} href={`${repoHref.section(o, repo.name, 'pulls')}/${pr.number}`} />
              ))}
            </ul>
          )
        }
      </Paged>
    </div>
  )
}
