import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Paged } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { type Commit, type Repository, repoHref, useCommits } from '@/lib/forge/api'
import { CommitAuthor } from '@/components/CommitAuthor'
import { RefSelector } from './RefSelector'
import { CommitStatusIcon } from '@/components/CommitStatus'
import { shortSha, subject, useForgeFormat } from '@/lib/forge/format'
import { RepoPage } from './RepoLayout'

export const COMMITS_PER_PAGE = 30

/** The commits of a ref (?ref=, the default branch without), optionally those touching ?path=, a page at a time. */
export default function CommitsScreen() {
  return <RepoPage section="commits">{(repo) => <Commits repo={repo} />}</RepoPage>
}

function Commits({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const [refParam] = useUrlParam('ref')
  const [path] = useUrlParam('path')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const gitRef = refParam || repo.default_branch
  const commits = useCommits(repo.owner.login, repo.name, { ref: gitRef, path: path || undefined }, page, COMMITS_PER_PAGE)
  useDocumentTitle(t('commits.title', { repo: repo.full_name }))
  return (
    <div className="stack">
      <PageHeader title={t('commits.heading')} lead={path ? t('commits.forPath', { path }) : undefined} />
      <RefSelector repo={repo} current={gitRef} hrefFor={(r) => repoHref.commits(repo.owner.login, repo.name, r === repo.default_branch ? undefined : r, path || undefined)} />
      <Paged query={commits} page={page} onPage={(p) => setPage(String(p))} limit={COMMITS_PER_PAGE} label={t('commits.heading')} empty={t('commits.empty')}>
        {(items) => (
          <ol className="commit-list plain-list" aria-label={t('commits.heading')}>
            {items.map((c) => (
              <CommitRow key={c.sha} repo={repo} commit={c} />
            ))}
          </ol>
        )}
      </Paged>
    </div>
  )
}

function CommitRow({ repo, commit }: { repo: Repository; commit: Commit }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const href = repoHref.commit(repo.owner.login, repo.name, commit.sha)
  const when = commit.commit.author.date
  return (
    <li className="card card-sm commit-row">
      <div>
        <PreloadLink to={href} className="commit-subject">
          {subject(commit.commit.message)}
        </PreloadLink>
        <p className="muted commit-meta">
          <CommitAuthor commit={commit} /> · <time dateTime={when} title={when}>{fmt.ago(when)}</time> <CommitStatusIcon owner={repo.owner.login} repo={repo.name} sha={commit.sha} />
        </p>
        {commit.files && commit.files.length > 0 && (
          <details>
            <summary className="muted">{t('commits.files', { count: commit.files.length })}</summary>
            <ul className="commit-files">
              {commit.files.map((f) => (
                <li key={f.filename} className="mono">
                  <span className="badge">{t(`diff.status.${f.status === 'removed' ? 'deleted' : f.status}`, { defaultValue: f.status })}</span> {f.filename}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      <PreloadLink to={href} className="mono commit-sha" aria-label={t('commits.shaLabel', { sha: shortSha(commit.sha) })}>
        {shortSha(commit.sha)}
      </PreloadLink>
    </li>
  )
}
