import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { PreloadLink } from '@/components/PreloadLink'
import { type Repository, repoHref } from '@/lib/forge/api'
import { shortSha, useForgeFormat } from '@/lib/forge/format'
import { ApiError } from '@/lib/http'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { Breadcrumbs } from './CodeBrowser'
import { editHref, useBlame } from './contentsApi'
import { RefSelector } from './RefSelector'
import { RepoPage } from './RepoLayout'

/** /:owner/:repo/blame/{path}?ref=: who last changed each line of a file. */
export default function BlameScreen() {
  const path = (useRoute().params['*'] ?? '').split('/').filter(Boolean).join('/')
  const refParam = new URLSearchParams(window.location.search).get('ref') || undefined
  return <RepoPage section="code">{(repo) => <BlameView repo={repo} path={path} refParam={refParam} />}</RepoPage>
}

function BlameView({ repo, path, refParam }: { repo: Repository; path: string; refParam?: string }) {
  const { t } = useTranslation('code')
  const fmt = useForgeFormat()
  const owner = repo.owner.login
  const gitRef = refParam ?? repo.default_branch
  const blame = useBlame(owner, repo.name, path, gitRef)
  useDocumentTitle(t('blame.title', { path, repo: repo.full_name }))
  let state = null
  if (blame.error instanceof NotFoundError) state = <EmptyState message={t('blame.notFound', { path, ref: gitRef })} />
  else if (blame.error instanceof ApiError && blame.error.status === 422) state = <EmptyState message={blame.error.message} />
  return (
    <div className="stack">
      <h1 className="sr-only">{t('blame.heading', { path })}</h1>
      <Breadcrumbs repo={repo} path={path} refParam={refParam} />
      <div className="code-toolbar">
        <RefSelector repo={repo} current={gitRef} hrefFor={(r) => editHref.blame(owner, repo.name, path, r === repo.default_branch ? undefined : r)} />
        <PreloadLink to={repoHref.src(owner, repo.name, path, refParam)}>{t('blame.source')}</PreloadLink>
        <PreloadLink to={repoHref.commits(owner, repo.name, refParam, path)}>{t('blame.history')}</PreloadLink>
      </div>
      {state ?? (
        <QueryState query={blame}>
          {(data) =>
            data.ranges.length === 0 ? (
              <EmptyState message={t('blame.empty')} />
            ) : (
              <div className="table-scroll card">
                <table className="data blame-table">
                  <caption className="sr-only">{t('blame.caption', { path })}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('blame.commit')}</th>
                      <th scope="col" className="num">
                        {t('blame.line')}
                      </th>
                      <th scope="col">{t('blame.code')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.ranges.map((r) => (
                      <tr key={r.start_line}>
                        <td className="blame-commit">
                          <PreloadLink to={repoHref.commit(owner, repo.name, r.commit.sha)} className="mono">
                            {shortSha(r.commit.sha)}
                          </PreloadLink>{' '}
                          <span title={r.commit.message}>{r.commit.message}</span>
                          <br />
                          <span className="muted">
                            {r.commit.author.name} · <time dateTime={r.commit.author.date}>{fmt.ago(r.commit.author.date)}</time>
                          </span>
                        </td>
                        <td className="num muted">
                          <pre>{r.lines.map((_, i) => r.start_line + i).join('\n')}</pre>
                        </td>
                        <td>
                          <pre>{r.lines.join('\n')}</pre>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryState>
      )}
    </div>
  )
}
