import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { type Branch, type Repository, useBranches } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { type OpenPullHead, headSpec, lastUpdated, newPullHref, newestFirst, useBranchesOf, useForks, useOpenPullHeads } from '@/lib/forge/forks'
import { useSignedInUser } from '@/stores/useSignedInUser'
import './repositories.css'

/** How recent a push is still offered a pull request. */
export const PROMPT_WINDOW_MS = 60 * 60 * 1000
const DISMISSED_KEY = 'dforge.comparePrompt.dismissed'

/** A branch someone may open a pull request from: where it lives and where it would go. */
export interface Pushed {
  repo: Repository
  base: Repository
  branch: Branch
}

/** The dismissed prompts, one per branch tip ("owner/repo:branch@sha"): a new push prompts again. */
function dismissed(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]')
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []
  } catch {
    return []
  }
}

const promptKey = (p: Pushed) => `${p.repo.full_name}:${p.branch.name}@${p.branch.commit.id}`

/**
 * The branches of repo that login pushed within the window: not its
 * default branch, with no open pull request into base, and theirs. A
 * branch the chain has a push of is theirs when they made that push, and
 * the window counts from it; one without (a branch no push on record made)
 * is theirs when it is in their own repository or fork or they authored its
 * tip, and the window counts from the tip's commit time.
 */
export function recentPushes(repo: Repository, base: Repository, branches: Branch[], open: OpenPullHead[], login: string, now: number): Pushed[] {
  const me = login.toLowerCase()
  const mine = (b: Branch) =>
    b.pusher
      ? b.pusher.login.toLowerCase() === me
      : repo.owner.login.toLowerCase() === me || b.commit.author?.username?.toLowerCase() === me || b.commit.author?.name?.toLowerCase() === me
  const hasPull = (b: Branch) => open.some((p) => p.head.ref === b.name && (p.head.repo_id ?? base.id) === repo.id)
  return newestFirst(branches)
    .filter((b) => {
      const at = Date.parse(lastUpdated(b) ?? '')
      return b.name !== repo.default_branch && now - at <= PROMPT_WINDOW_MS && mine(b) && !hasPull(b)
    })
    .map((branch) => ({ repo, base, branch }))
}

/**
 * "Compare & pull request": on a repository's home, the branches the
 * signed-in user pushed lately (to it, or to their fork of it) that have
 * no pull request yet, each with a link to open one (into the repository
 * a fork was forked from). Each can be dismissed, remembered in
 * localStorage.
 */
export function ComparePrompt({ repo }: { repo: Repository }) {
  const user = useSignedInUser()
  if (!user || repo.empty || repo.has_git_data === false) return null
  return <Prompts repo={repo} login={user.username} />
}

function Prompts({ repo, login }: { repo: Repository; login: string }) {
  const { t } = useTranslation('repositories')
  const { ago } = useForgeFormat()
  const base = repo.fork && repo.parent ? repo.parent : repo
  const here = useBranches(repo.owner.login, repo.name)
  const forks = useForks(repo.owner.login, repo.name, !repo.fork && repo.owner.login.toLowerCase() !== login.toLowerCase())
  const own = forks.data?.find((f) => f.owner.login.toLowerCase() === login.toLowerCase())
  const ofFork = useBranchesOf(own?.owner.login ?? '', own?.name ?? '', own !== undefined)
  const [hidden, setHidden] = useState(dismissed)
  const now = Date.now()
  const pushed = (open: OpenPullHead[]) =>
    [...recentPushes(repo, base, here.data ?? [], open, login, now), ...(own ? recentPushes(own, repo, ofFork.data ?? [], open, login, now) : [])].filter(
      (p) => !hidden.includes(promptKey(p)),
    )
  // The open pull requests are asked for only when a branch may be offered.
  const open = useOpenPullHeads(base.owner.login, base.name, pushed([]).length > 0)
  if (!open.data) return null
  const pushes = pushed(open.data)
  if (pushes.length === 0) return null
  const dismiss = (p: Pushed) => {
    const next = [...hidden, promptKey(p)].slice(-50)
    try {
      localStorage.setItem(DISMISSED_KEY, JSON.stringify(next))
    } catch {
      // Storage refused (private mode): it is hidden for this visit only.
    }
    setHidden(next)
  }
  return (
    <>
      {pushes.map((p) => {
        const label = p.repo.id === p.base.id ? p.branch.name : `${p.repo.owner.login}:${p.branch.name}`
        return (
          <Card as="section" key={promptKey(p)} className="compare-prompt" aria-label={t('comparePrompt.label', { branch: label })}>
            <p>
              {t('comparePrompt.pushed', { branch: label, ago: ago(lastUpdated(p.branch)) })}
            </p>
            <div className="button-row">
              <a className="btn btn-primary btn-sm" href={newPullHref(p.base, p.base.default_branch, headSpec(p.base, p.repo, p.branch.name))}>
                {t('comparePrompt.open')}
              </a>
              <Button size="sm" variant="ghost" onClick={() => dismiss(p)}>
                {t('comparePrompt.dismiss')}
              </Button>
            </div>
          </Card>
        )
      })}
    </>
  )
}
