import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { ChainTable, type Column } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Contributor, type Repository, useContributors } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { RepoPage } from './RepoLayout'

/** Who committed to the default branch, most commits first. */
export default function ContributorsScreen() {
  return <RepoPage section="contributors">{(repo) => <Contributors repo={repo} />}</RepoPage>
}

function Contributors({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const contributors = useContributors(repo.owner.login, repo.name)
  useDocumentTitle(t('contributors.title', { repo: repo.full_name }))
  const columns: Column<Contributor>[] = [
    {
      heading: t('contributors.columns.name'),
      cell: (c) => (c.login ? <PreloadLink to={`/user/${encodeURIComponent(c.login)}`}>{c.login}</PreloadLink> : <span>{c.name || c.email}</span>),
    },
    { heading: t('contributors.columns.commits'), num: true, cell: (c) => fmt.count(c.commits) },
  ]
  return (
    <div className="stack">
      <PageHeader title={t('contributors.heading')} />
      <QueryState query={contributors}>
        {(list) => {
          const sorted = [...list].sort((a, b) => b.commits - a.commits)
          return sorted.length === 0 ? (
            <EmptyState message={t('contributors.empty')} />
          ) : (
            <ChainTable rows={sorted} rowKey={(c) => c.login || c.email || c.name} columns={columns} caption={t('contributors.heading')} />
          )
        }}
      </QueryState>
    </div>
  )
}
