// A repository's fork network, for comparing and opening pull requests
// across forks: its forks, the head a pull request names ("branch" or
// "owner:branch"), and the branches someone pushed lately.
import { useQuery } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { type Branch, type Repository, getPage, repoApi, repoKeys } from '@/lib/forge/api'

/** The forks of a repository (Gitea's GET /repos/{o}/{r}/forks), the first hundred. */
export function useForks(owner: string, repo: string, enabled = true) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'forks'],
    queryFn: async () => (await getPage<Repository>(`${repoApi(owner, repo)}/forks`, {}, 1, 100)).items,
    enabled,
  })
}

/** A repository's branches, when enabled (useBranches always loads). */
export function useBranchesOf(owner: string, repo: string, enabled: boolean) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'branches'],
    queryFn: async () => (await getPage<Branch>(`${repoApi(owner, repo)}/branches`, {}, 1, 100)).items,
    enabled,
  })
}

/** The head of an open pull request, as GET /pulls lists it. */
export type OpenPullHead = Pick<Schema<'Pull'>, 'head'>

/** The heads of a repository's open pull requests (the first hundred). */
export function useOpenPullHeads(owner: string, repo: string, enabled: boolean) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'pulls', 'open-heads'],
    queryFn: async () => (await getPage<OpenPullHead>(`${repoApi(owner, repo)}/pulls`, { state: 'open' }, 1, 100)).items,
    enabled,
  })
}

/** A pull request's head as the API takes it: "branch" within base, "owner:branch" from another repository. */
export function headSpec(base: Repository, head: Repository, branch: string): string {
  return head.id === base.id ? branch : `${head.owner.login}:${branch}`
}

/** Splits "owner:branch" (or "owner/repo:branch"); a plain "branch" has no owner. */
export function parseHead(spec: string): { owner: string; branch: string } {
  const i = spec.indexOf(':')
  if (i < 0) return { owner: '', branch: spec }
  return { owner: spec.slice(0, i).split('/')[0], branch: spec.slice(i + 1) }
}

/** The new pull request page of base with base and head filled. */
export function newPullHref(base: Repository, baseBranch: string, head: string): string {
  const q = new URLSearchParams({ base: baseBranch, head })
  return `/${encodeURIComponent(base.owner.login)}/${encodeURIComponent(base.name)}/pulls/new?${q}`
}

/** The branches sorted newest tip first (those without a time last). */
export function newestFirst(branches: Branch[]): Branch[] {
  const at = (b: Branch) => Date.parse(lastUpdated(b) ?? '') || 0
  return [...branches].sort((a, b) => at(b) - at(a))
}

/**
 * When a branch last moved: its last push as the chain ordered it, else
 * (a branch no push on record made) its tip commit's own time, which says
 * when the commit was written, not when it arrived.
 */
export function lastUpdated(b: Branch): string | undefined {
  return b.pushed_at ?? (b.commit.timestamp || undefined)
}
