/** A repository in the shape of Gitea's API, which the forge milestone serves. */
export interface Repository {
  id: number
  full_name: string
  description: string
  stars_count: number
  forks_count: number
  updated_at: string
}

export const SORTS = ['updated', 'stars', 'forks', 'name'] as const
export type RepositorySort = (typeof SORTS)[number]

export function isRepositorySort(s: string): s is RepositorySort {
  return (SORTS as readonly string[]).includes(s)
}

const NONE: Repository[] = []

/**
 * Every repository on this node. None can exist before the forge milestone,
 * and its endpoint (GET /api/v1/repos/search) does not exist yet, so nothing
 * is fetched: the list is honestly empty.
 */
export function useRepositories(): Repository[] {
  return NONE
}

/** Repositories whose name or description contains the query, ignoring case. */
export function filterRepositories(repos: readonly Repository[], query: string): Repository[] {
  const q = query.trim().toLowerCase()
  if (!q) return [...repos]
  return repos.filter((r) => r.full_name.toLowerCase().includes(q) || r.description.toLowerCase().includes(q))
}

const COMPARE: Record<RepositorySort, (a: Repository, b: Repository) => number> = {
  updated: (a, b) => b.updated_at.localeCompare(a.updated_at),
  stars: (a, b) => b.stars_count - a.stars_count,
  forks: (a, b) => b.forks_count - a.forks_count,
  name: (a, b) => a.full_name.localeCompare(b.full_name),
}

export function sortRepositories(repos: readonly Repository[], sort: RepositorySort): Repository[] {
  return [...repos].sort(COMPARE[sort])
}
