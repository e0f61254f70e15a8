import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Commit, ipfsHref, type Repository, repoHref, useCommit, useCommitDiff } from '@/lib/forge/api'
import { CommitAuthor } from '@/components/CommitAuthor'
import { parseDiff } from '@/lib/forge/diff'
import { DiffView } from '@/components/DiffView'
import { shortSha, subject, useForgeFormat } from '@/lib/forge/format'
import { CommitStatusIcon } from '@/components/CommitStatus'
import { RepoPage } from './RepoLayout'

/** One commit: its message, author, parents, IPFS CID and diff. */
export default function CommitScreen() {
  const sha = useRoute().params.sha ?? ''
  return <RepoPage section="commits">{(repo) => <CommitPage repo={repo} sha={sha} />}</RepoPage>
}

function CommitPage({ repo, sha }: { repo: Repository; sha: string }) {
  const { t } = useTranslation('repositories')
  const commit = useCommit(repo.owner.login, repo.name, sha)
  useDocumentTitle(commit.data ? `${subject(commit.data.commit.message)} · ${repo.full_name}@${shortSha(sha)}` : t('commit.title'))
  if (commit.error instanceof NotFoundError) return <EmptyState message={t('commit.notFound', { sha })} />
  return <QueryState query={commit}>{(c) => <CommitDetail repo={repo} commit={c} />}</QueryState>
}

function CommitDetail({ repo, commit }: { repo: Repository; commit: Commit }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const [title, ...rest] = commit.commit.message.split('\n')
  const body = rest.join('\n').trim()
  const when = commit.commit.author.date
  return (
    <div className="stack">
      <Card as="section" aria-labelledby="commit-title">
        <h1 id="commit-title" className="commit-title">
          {title}
        </h1>
        {body && <pre className="commit-body">{body}</pre>}
        <p className="muted">
          <CommitAuthor commit={commit} /> · <time dateTime={when} title={when}>{fmt.ago(when)}</time>
        </p>
        <dl className="commit-facts">
          <div>
            <dt>{t('commit.sha')}</dt>
            <dd className="mono">
              {commit.sha} <CommitStatusIcon owner={repo.owner.login} repo={repo.name} sha={commit.sha} />
            </dd>
          </div>
          {commit.parents.length > 0 && (
            <div>
              <dt>{t('commit.parents', { count: commit.parents.length })}</dt>
              <dd>
                {commit.parents.map((p, i) => (
                  <span key={p.sha}>
                    {i > 0 && ', '}
                    <PreloadLink className="mono" to={repoHref.commit(repo.owner.login, repo.name, p.sha)}>
                      {shortSha(p.sha)}
                    </PreloadLink>
                  </span>
                ))}
              </dd>
            </div>
          )}
          <div>
            <dt>{t('commit.cid')}</dt>
            <dd>
              {commit.cid ? (
                <a className="mono" href={ipfsHref(commit.cid)}>
                  {commit.cid}
                </a>
              ) : (
                <span className="muted">{repo.private ? t('commit.noCidPrivate') : t('commit.noCid')}</span>
              )}
            </dd>
          </div>
        </dl>
        <PreloadLink to={repoHref.src(repo.owner.login, repo.name, '', commit.sha)}>{t('commit.browse')}</PreloadLink>
      </Card>
      <CommitDiff repo={repo} sha={commit.sha} />
    </div>
  )
}

function CommitDiff({ repo, sha }: { repo: Repository; sha: string }) {
  const diff = useCommitDiff(repo.owner.login, repo.name, sha)
  return <QueryState query={diff}>{(text) => <ParsedDiff text={text} />}</QueryState>
}

function ParsedDiff({ text }: { text: string }) {
  const files = useMemo(() => parseDiff(text), [text])
  return <DiffView files={files} />
}
