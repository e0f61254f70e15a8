import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { Paged } from '@/components/Lists'
import { NotFoundCard } from '@/components/NotFoundCard'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { type Repository, repoHref } from '@/lib/forge/api'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { RepoPage } from '@/features/repositories'
import { IssueRow } from './IssueRow'
import { MilestoneDates, MilestoneProgress } from './MilestoneListScreen'
import { type Milestone, useMilestone, useMilestoneIssues } from './tracker'
import './issues.css'

const PER_PAGE = 25

/** One milestone and the issues and pull requests filed under it, at /:owner/:repo/milestones/:id. */
export default function MilestoneScreen() {
  const { params } = useRoute()
  return <RepoPage section="issues">{(repo) => <MilestoneView repo={repo} id={params.id ?? ''} />}</RepoPage>
}

function MilestoneView({ repo, id }: { repo: Repository; id: string }) {
  const { t } = useTranslation('tracker')
  const milestone = useMilestone(repo.owner.login, repo.name, id)
  if (milestone.error instanceof NotFoundError) {
    return (
      <NotFoundCard
        title={t('milestone.notFound', { id })}
        description={t('milestone.notFoundHelp')}
        links={[{ to: repoHref.section(repo.owner.login, repo.name, 'milestones'), label: t('milestones.heading') }]}
      />
    )
  }
  return <QueryState query={milestone}>{(m) => <MilestoneDetail repo={repo} milestone={m} />}</QueryState>
}

function MilestoneDetail({ repo, milestone: m }: { repo: Repository; milestone: Milestone }) {
  const { t } = useTranslation('tracker')
  const o = repo.owner.login
  const [pageParam, setPage] = useUrlParam('page', '1')
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const issues = useMilestoneIssues(o, repo.name, m.id, page, PER_PAGE)
  useDocumentTitle(`${m.title} · ${t('milestones.heading')} · ${repo.full_name}`)
  return (
    <div className="stack">
      <PageHeader
        title={m.title}
        lead={<MilestoneDates milestone={m} />}
        actions={<PreloadLink to={repoHref.section(o, repo.name, 'milestones')}>{t('milestones.all')}</PreloadLink>}
      />
      <Card>
        {m.description && <p>{m.description}</p>}
        <MilestoneProgress milestone={m} />
      </Card>
      <Paged query={issues} page={page} onPage={(p) => setPage(String(p))} limit={PER_PAGE} label={t('milestone.issues')} empty={t('milestone.empty')}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState message={t('milestone.empty')} />
          ) : (
            <ul className="issue-list plain-list" aria-label={t('milestone.issues')}>
              {items.map((issue) => (
                <IssueRow
                  key={issue.id}
                  issue={issue}
                  merged={Boolean(issue.pull_request?.merged)}
                  href={`${repoHref.section(o, repo.name, issue.pull_request ? 'pulls' : 'issues')}/${issue.number}`}
                />
              ))}
            </ul>
          )
        }
      </Paged>
    </div>
  )
}
