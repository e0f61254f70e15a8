import { useTranslation } from 'react-i18next'
import { CommitAuthor } from '@/components/CommitAuthor'
import { PreloadLink } from '@/components/PreloadLink'
import { type Commit, type Repository, repoHref } from '@/lib/forge/api'
import { shortSha, subject, useForgeFormat } from '@/lib/forge/format'
import { useLatestCommit } from './contentsApi'

/** The author's avatar, or the first letter of their name when they have none. */
function AuthorAvatar({ commit }: { commit: Commit }) {
  const url = commit.author?.avatar_url
  if (url) return <img className="avatar-sm" src={url} alt="" width={20} height={20} />
  const name = commit.author?.login || commit.commit.author.name || '?'
  return (
    <span className="avatar-sm avatar-initial" aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  )
}

/**
 * The bar over a directory or file: its newest commit at gitRef (author,
 * subject, short id, when) and how many commits lead there, linking to
 * that history.
 */
export function LatestCommit({ repo, gitRef, path }: { repo: Repository; gitRef: string; path: string }) {
  const { t } = useTranslation('code')
  const fmt = useForgeFormat()
  const owner = repo.owner.login
  const latest = useLatestCommit(owner, repo.name, gitRef, path)
  if (latest.isPending) {
    return (
      <p className="latest-commit muted" aria-busy="true">
        {t('latest.loading')}
      </p>
    )
  }
  // A missing or unreadable history leaves the listing below to say so.
  if (latest.isError || !latest.data.commit) return null
  const { commit, total } = latest.data
  const href = repoHref.commit(owner, repo.name, commit.sha)
  const when = commit.commit.committer.date || commit.commit.author.date
  const refParam = gitRef === repo.default_branch ? undefined : gitRef
  return (
    <section className="latest-commit" aria-label={t('latest.label')}>
      <span className="latest-commit-author">
        <AuthorAvatar commit={commit} />
        <CommitAuthor commit={commit} />
      </span>
      <PreloadLink to={href} className="latest-commit-subject" title={commit.commit.message}>
        {subject(commit.commit.message)}
      </PreloadLink>
      <span className="latest-commit-meta">
        <PreloadLink to={href} className="mono muted" aria-label={t('latest.sha', { sha: shortSha(commit.sha) })}>
          {shortSha(commit.sha)}
        </PreloadLink>
        <time className="muted" dateTime={when} title={fmt.exact(when)}>
          {fmt.ago(when)}
        </time>
        {total !== null && (
          <PreloadLink to={repoHref.commits(owner, repo.name, refParam, path || undefined)} className="latest-commit-history">
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round">
              <path d="M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2.5 2.5v2.5H5M8 5v3.2l2 1.3" />
            </svg>
            {t('latest.commits', { count: total, n: fmt.count(total) })}
          </PreloadLink>
        )}
      </span>
    </section>
  )
}
