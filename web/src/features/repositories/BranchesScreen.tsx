import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { ChainTable, type Column } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Branch, type Repository, repoHref, useBranches } from '@/lib/forge/api'
import { shortSha, subject, useForgeFormat } from '@/lib/forge/format'
import { RepoPage } from './RepoLayout'
import { BranchRowActions, NewBranchForm } from './BranchActions'

/** A repository's branches with their last commit; the default and protected ones are marked. */
export default function BranchesScreen() {
  return <RepoPage section="branches">{(repo) => <Branches repo={repo} />}</RepoPage>
}

function Branches({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  // The actions' texts load with them, without holding the list back.
  const { t: tb } = useTranslation('branches', { useSuspense: false })
  const fmt = useForgeFormat()
  const branches = useBranches(repo.owner.login, repo.name)
  useDocumentTitle(t('branches.title', { repo: repo.full_name }))
  const o = repo.owner.login
  const columns: Column<Branch>[] = [
    {
      heading: t('branches.columns.name'),
      cell: (b) => (
        <>
          <PreloadLink to={repoHref.src(o, repo.name, '', b.name === repo.default_branch ? undefined : b.name)}>{b.name}</PreloadLink>{' '}
          {b.name === repo.default_branch && <span className="badge">{t('branches.default')}</span>}{' '}
          {b.protected && <span className="badge">{t('branches.protected')}</span>}
        </>
      ),
    },
    {
      heading: t('branches.columns.commit'),
      cell: (b) => (
        <>
          <PreloadLink className="mono" to={repoHref.commit(o, repo.name, b.commit.id)}>
            {shortSha(b.commit.id)}
          </PreloadLink>{' '}
          {subject(b.commit.message ?? '')}
        </>
      ),
    },
    { heading: t('branches.columns.updated'), cell: (b) => (b.commit.timestamp ? <time dateTime={b.commit.timestamp}>{fmt.ago(b.commit.timestamp)}</time> : '—') },
    { heading: t('branches.columns.history'), cell: (b) => <PreloadLink to={repoHref.commits(o, repo.name, b.name)}>{t('branches.commits')}</PreloadLink> },
  ]
  const canPush = Boolean(repo.permissions?.push)
  if (canPush) columns.push({ heading: tb('actions'), cell: (b) => <BranchRowActions repo={repo} branch={b} /> })
  return (
    <div className="stack">
      <PageHeader title={t('branches.heading')} />
      <QueryState query={branches}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t('branches.empty')} />
          ) : (
            <>
              {canPush && <NewBranchForm repo={repo} branches={list} />}
              <ChainTable rows={list} rowKey={(b) => b.name} columns={columns} caption={t('branches.heading')} />
            </>
          )
        }
      </QueryState>
    </div>
  )
}
