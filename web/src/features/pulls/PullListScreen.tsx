import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { type Issue, IssueRow } from '@/features/issues'
import { type Repository, repoHref } from '@/lib/forge/api'
import { RepoPage } from '@/features/repositories'
import { Paged } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { type PullRequest, usePulls } from './api'
import { NoPullRequests } from './EmptyStates'
import './pulls.css'

export const PULLS_PER_PAGE = 25
const STATES = ['open', 'closed', 'all'] as const

/** A repository's pull requests, open, closed or all, a page at a time. */
export default function PullListScreen() {
  return <RepoPage section="pulls">{(repo) => <PullList repo={repo} />}</RepoPage>
}

/** A pull request in the shape of an issue row. */
const asIssue = (pr: PullRequest): Issue => ({ ...pr, comments: pr.comments ?? 0, labels: pr.labels ?? [] })

function PullList({ repo }: { repo: Repository }) {
  const { t } = useTranslation('pulls')
  const o = repo.owner.login
  const [stateParam, setState] = useUrlParam('state', 'open')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const state = (STATES as readonly string[]).includes(stateParam) ? (stateParam as (typeof STATES)[number]) : 'open'
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const pulls = usePulls(o, repo.name, state, page, PULLS_PER_PAGE)
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
      <div className="button-row" role="group" aria-label={t('list.stateFilter')}>
        {STATES.map((s) => (
          <Button
            key={s}
            size="sm"
            variant={state === s ? 'secondary' : 'ghost'}
            aria-pressed={state === s}
            onClick={() => {
              setState(s)
              setPage('1')
            }}
          >
            {t(`list.states.${s}`)}
          </Button>
        ))}
      </div>
      <Paged query={pulls} page={page} onPage={(p) => setPage(String(p))} limit={PULLS_PER_PAGE} label={t('list.heading')} empty={t('list.empty')}>
        {(items) =>
          items.length === 0 ? (
            <NoPullRequests />
          ) : (
            <ul className="issue-list plain-list">
              {items.map((pr) => (
                <IssueRow key={pr.id} issue={asIssue(pr)} merged={pr.merged} href={`${repoHref.section(o, repo.name, 'pulls')}/${pr.number}`} />
              ))}
            </ul>
          )
        }
      </Paged>
    </div>
  )
}
