import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { getJSON } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

// GET /api/v1/user/dashboard (a dForge extension): what needs the signed-in
// user, each section its first items, its total and the API query that lists
// them all (Gitea's issue search with a relation, the repositories list, the
// notifications).

/** An issue or pull request as Gitea's issue search sends it; hidden and its reason only when set (omitempty). */
export type DashIssue = Optional<Schema<'Issue'>, 'hidden' | 'hidden_reason'>

/** One of the user's open pull requests with the combined status of its head. */
export type DashPull = Optional<Schema<'DashPull'>, 'hidden' | 'hidden_reason'>

export type DashRepo = Schema<'Repo'>

export type DashThread = Optional<Schema<'NotificationThread'>, 'amount' | 'reward'>

/** A section: its first items, its total and the API query (path and parameters) that lists every item, paged. */
export type Section<T> = Omit<Schema<'DashIssues'>, 'items'> & { items: T[] }

/** Schema<'Dashboard'>, with the items' omitempty fields optional. */
export interface Dashboard {
  review_requests: Section<DashIssue>
  assigned: Section<DashIssue>
  pulls: Section<DashPull>
  repositories: Section<DashRepo>
  notifications: Section<DashThread>
}

export const SEE_ALL_PAGE = 20

/** The signed-in user's dashboard. */
export function useDashboard() {
  return useQuery({ queryKey: ['dashboard'], queryFn: () => getJSON<Dashboard>('/api/v1/user/dashboard') })
}

/** One page of a section's "see all" query. */
export function useSeeAll<T>(seeAll: string, page: number) {
  return useQuery({
    queryKey: ['dashboard', 'all', seeAll, page],
    queryFn: () => {
      const url = new URL(seeAll, window.location.origin)
      return getPage<T>(url.pathname, Object.fromEntries(url.searchParams), page, SEE_ALL_PAGE)
    },
    placeholderData: keepPreviousData,
  })
}

/** The path of one of this node's absolute links, for in-app links. */
export function localPath(href: string): string {
  try {
    const u = new URL(href, window.location.origin)
    return u.pathname + u.search + u.hash
  } catch {
    return href
  }
}
