import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Repository, repoHref } from '@/lib/forge/api'
import { Breadcrumbs, CodeToolbar, CodeView } from './CodeBrowser'
import { LatestCommit } from './LatestCommit'
import { isReplicating, Replicating } from './Replicating'
import { RepoPage } from './RepoLayout'

/** The tree or file at /:owner/:repo/src/{path}?ref= (the default branch without ref). */
export default function CodeScreen() {
  const path = (useRoute().params['*'] ?? '').split('/').filter(Boolean).join('/')
  const refParam = new URLSearchParams(window.location.search).get('ref') || undefined
  return <RepoPage section="code">{(repo) => <Code repo={repo} path={path} refParam={refParam} />}</RepoPage>
}

function Code({ repo, path, refParam }: { repo: Repository; path: string; refParam?: string }) {
  const gitRef = refParam ?? repo.default_branch
  useDocumentTitle(path ? `${path} · ${repo.full_name}` : repo.full_name)
  if (isReplicating(repo)) {
    return (
      <div className="stack">
        <h1 className="sr-only">{path || repo.full_name}</h1>
        <Replicating repo={repo} />
      </div>
    )
  }
  return (
    <div className="stack">
      <h1 className="sr-only">{path || repo.full_name}</h1>
      <Breadcrumbs repo={repo} path={path} refParam={refParam} />
      <CodeToolbar repo={repo} path={path} gitRef={gitRef} hrefFor={(r) => repoHref.src(repo.owner.login, repo.name, path, r === repo.default_branch ? undefined : r)} />
      <LatestCommit repo={repo} gitRef={gitRef} path={path} />
      <CodeView repo={repo} path={path} gitRef={gitRef} refParam={refParam} />
    </div>
  )
}
