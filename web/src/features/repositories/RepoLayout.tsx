import { type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Button } from '@/components/Button'
import { NotFoundCard } from '@/components/NotFoundCard'
import { PreloadLink } from '@/components/PreloadLink'
import { SignerBadge } from '@/components/SignerBadge'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { NotFoundScreen } from '@/features/errors'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { canMaintain, isOwner, type Repository, repoHref, useRepo } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { canOwn, nav } from '@/lib/forge/nav'
import { useForkRepo, useSetFlag } from './api'
import { RepoShortcuts } from './RepoShortcuts'
import { TransferBanner } from './TransferBanner'
import './repositories.css'

export type RepoSection = 'code' | 'issues' | 'pulls' | 'actions' | 'commits' | 'branches' | 'tags' | 'releases' | 'contributors' | 'settings'

/** The owner and repository names of a /:owner/:repo/... page. */
export function useRepoParams(): { owner: string; repo: string } {
  const { params } = useRoute()
  return { owner: params.owner ?? '', repo: params.repo ?? '' }
}

interface RepoPageProps {
  section: RepoSection
  /** Names the repository when the route does not (the spec's /issue/:id and /pr/:id). */
  owner?: string
  repo?: string
  /** Shows the repository's name as the page's h1 (pages without a heading of their own). */
  heading?: boolean
  children: (repo: Repository) => ReactNode
}

/**
 * A page of one repository: loads it, answers a missing (or hidden private)
 * one with Not Found, and draws the header and section tabs around children.
 */
export function RepoPage({ section, heading, children, ...names }: RepoPageProps) {
  const fromRoute = useRepoParams()
  const owner = names.owner ?? fromRoute.owner
  const repo = names.repo ?? fromRoute.repo
  if (!canOwn(owner)) return <NotFoundScreen />
  return (
    <LoadedRepo owner={owner} repo={repo} section={section} heading={heading}>
      {children}
    </LoadedRepo>
  )
}

function LoadedRepo({ owner, repo, section, heading, children }: { owner: string; repo: string; section: RepoSection; heading?: boolean; children: (repo: Repository) => ReactNode }) {
  const query = useRepo(owner, repo)
  if (query.error instanceof NotFoundError) return <RepoNotFound name={`${owner}/${repo}`} />
  // Deferred: the frame and the page inside it mount in slices (QueryState).
  return (
    <QueryState query={query} defer>
      {(r) => (
        <RepoFrame repo={r} section={section} heading={heading}>
          {children(r)}
        </RepoFrame>
      )}
    </QueryState>
  )
}

export function RepoNotFound({ name }: { name: string }) {
  const { t } = useTranslation('repositories')
  return (
    <NotFoundCard
      title={t('repository.notFound.title')}
      description={t('repository.notFound.description', { id: name })}
      links={[
        { to: '/explore', label: t('repository.notFound.back') },
        { to: '/search', label: t('repository.notFound.search') },
      ]}
    />
  )
}

/** The header (name, visibility, star/watch/fork) and section tabs of a repository's pages, and their keyboard shortcuts. */
export function RepoFrame({ repo, section, heading = false, children }: { repo: Repository; section: RepoSection; heading?: boolean; children: ReactNode }) {
  // "Go to file" searches the ref the code view shows; elsewhere, the default branch.
  const gitRef = (section === 'code' && new URLSearchParams(window.location.search).get('ref')) || repo.default_branch
  return (
    <RepoShortcuts repo={repo} gitRef={gitRef}>
      <div className="stack repo">
        <RepoHeader repo={repo} heading={heading} />
        <TransferBanner repo={repo} />
        <RepoNav repo={repo} section={section} />
        {children}
      </div>
    </RepoShortcuts>
  )
}

function RepoHeader({ repo, heading }: { repo: Repository; heading: boolean }) {
  const { t } = useTranslation('repositories')
  const Title = heading ? 'h1' : 'p'
  return (
    <div className="repo-header">
      <div>
        <Title className="repo-title">
          <PreloadLink to={`/user/${encodeURIComponent(repo.owner.login)}`}>{repo.owner.login}</PreloadLink>
          <span className="muted"> / </span>
          <PreloadLink to={repoHref.home(repo.owner.login, repo.name)}>
            <strong>{repo.name}</strong>
          </PreloadLink>{' '}
          <span className="badge">{repo.private ? t('visibility.private') : t('visibility.public')}</span>
        </Title>
        {repo.parent && (
          <p className="muted repo-fork-of">
            {t('header.forkOf')} <PreloadLink to={repoHref.home(repo.parent.owner.login, repo.parent.name)}>{repo.parent.full_name}</PreloadLink>
          </p>
        )}
        {/* Who signed the repository's creation; the badge asks the node registry only when opened, so this header adds no request to the page. */}
        {repo.signer && (
          <p className="repo-signed">
            <SignerBadge signer={repo.signer} delegation={repo.delegation} />
          </p>
        )}
      </div>
      <RepoActions repo={repo} />
    </div>
  )
}

function RepoActions({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const user = useSignedInUser()
  const noteId = useId()
  return (
    <div className="repo-actions">
      <div className="button-row" role="group" aria-label={t('header.actions')}>
        <FlagButton kind="star" repo={repo} count={repo.stars_count} signedIn={!!user} describedBy={user ? undefined : noteId} />
        <FlagButton kind="watch" repo={repo} count={repo.watchers_count ?? 0} signedIn={!!user} describedBy={user ? undefined : noteId} />
        <ForkButton repo={repo} signedIn={!!user} describedBy={user ? undefined : noteId} />
      </div>
      {!user && (
        <p id={noteId} className="muted repo-actions-note">
          {t('header.signInToAct')}
        </p>
      )}
    </div>
  )
}

function FlagButton({ kind, repo, count, signedIn, describedBy }: { kind: 'star' | 'watch'; repo: Repository; count: number; signedIn: boolean; describedBy?: string }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const owner = repo.owner.login
  const toggle = useSetFlag(kind, owner, repo.name)
  // The repository's answer carries the caller's star and watch, so no
  // request that answers 404 for "no" is made (a browser logs those).
  const on = (kind === 'star' ? repo.starred_by_me : repo.watched_by_me) ?? false
  const label = t(`header.${kind}.${on ? 'undo' : 'do'}`)
  return (
    <span className="repo-action">
      <Button
        size="sm"
        variant={on ? 'secondary' : 'outline'}
        aria-pressed={signedIn ? on : undefined}
        aria-describedby={describedBy}
        disabled={!signedIn || toggle.isPending}
        onClick={() => toggle.mutate(!on)}
      >
        {label}
        <span className="badge" aria-label={t(`header.${kind}.count`, { count })}>
          {fmt.count(count)}
        </span>
      </Button>
      {toggle.isError && (
        <span role="alert" className="field-error">
          {errorText(toggle.error)}
        </span>
      )}
    </span>
  )
}

function ForkButton({ repo, signedIn, describedBy }: { repo: Repository; signedIn: boolean; describedBy?: string }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const fork = useForkRepo(repo.owner.login, repo.name, (created) => nav.go(repoHref.home(created.owner.login, created.name)))
  return (
    <span className="repo-action">
      <Button size="sm" variant="outline" aria-describedby={describedBy} disabled={!signedIn || fork.isPending} onClick={() => fork.mutate()}>
        {fork.isPending ? t('header.fork.pending') : t('header.fork.do')}
        <span className="badge" aria-label={t('header.fork.count', { count: repo.forks_count })}>
          {fmt.count(repo.forks_count)}
        </span>
      </Button>
      {fork.isError && (
        <span role="alert" className="field-error">
          {errorText(fork.error)}
        </span>
      )}
    </span>
  )
}

function RepoNav({ repo, section }: { repo: Repository; section: RepoSection }) {
  const { t } = useTranslation('repositories')
  const user = useSignedInUser()
  const o = repo.owner.login
  const n = repo.name
  const items: { id: RepoSection; to: string; count?: number }[] = [
    { id: 'code', to: repoHref.home(o, n) },
    { id: 'issues', to: repoHref.section(o, n, 'issues'), count: repo.open_issues_count },
    { id: 'pulls', to: repoHref.section(o, n, 'pulls'), count: repo.open_pr_counter },
    { id: 'actions', to: repoHref.section(o, n, 'actions') },
    { id: 'commits', to: repoHref.commits(o, n) },
    { id: 'branches', to: repoHref.section(o, n, 'branches') },
    { id: 'tags', to: repoHref.section(o, n, 'tags') },
    { id: 'releases', to: repoHref.section(o, n, 'releases') },
    { id: 'contributors', to: repoHref.section(o, n, 'contributors') },
  ]
  if (isOwner(repo, user?.username) || canMaintain(repo)) items.push({ id: 'settings', to: repoHref.section(o, n, 'settings') })
  return (
    <nav aria-label={t('nav.label')} className="repo-nav">
      <ul className="plain-list">
        {items.map((item) => (
          <li key={item.id}>
            <PreloadLink to={item.to} aria-current={item.id === section ? 'page' : undefined}>
              {t(`nav.${item.id}`)}
              {item.count ? <span className="badge">{item.count}</span> : null}
            </PreloadLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
