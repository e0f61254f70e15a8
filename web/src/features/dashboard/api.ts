import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

// GET /api/v1/user/dashboard (a dForge extension): what needs the signed-in
// user, each section its first items, its total and the API query that lists
// them all (Gitea's issue search with a relation, the repositories list, the
// notifications).

/** An issue or pull request as Gitea's issue search sends it (the fields the dashboard reads). */
export interface DashIssue {
  id: number
  number: number
  title: string
  html_url: string
  state: string
  updated_at: string
  user: { login: string }
  repository: { full_name: string }
  pull_request: { html_url: string } | null
}

export type CheckState = '' | 'success' | 'pending' | 'warning' | 'failure' | 'error'

/** One of the user's open pull requests with the combined status of its head. */
export interface DashPull extends DashIssue {
  head_sha: string
  /** Reviewers whose latest verdict approves (not dismissed). */
  approvals: number
  checks: { state: CheckState; total_count: number; statuses: { id: number; context: string; status: CheckState; description: string; target_url: string }[] }
}

export interface DashRepo {
  id: number
  full_name: string
  description: string
  html_url: string
  private: boolean
  updated_at: string
  stars_count: number
  open_issues_count: number
  open_pr_counter: number
}

export interface DashThread {
  id: number
  unread: boolean
  updated_at: string
  reason: string
  repository: { full_name: string } | null
  subject: { title: string; html_url: string; latest_comment_html_url: string; type: string; state: string }
}

export interface Section<T> {
  total_count: number
  items: T[]
  /** The API query (path and parameters) that lists every item, paged. */
  see_all: string
}

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
