// Search across the node, Gitea's API v1: users (GET /users/search) and
// issues across repositories (GET /repos/issues/search). Repositories are
// searched with the repositories feature's useRepoSearch.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Issue } from '@/features/issues'
import { getPage, repoHref } from '@/lib/forge/api'
import type { PublicUser } from '@/features/users'

/** The accounts whose username or full name holds q, in any case (a leading @ is dropped); all of them for an empty q. */
export function useUserSearch(query: string, page: number, limit: number) {
  const q = query.replace(/^@/, '')
  return useQuery({
    queryKey: ['user-search', q, page, limit],
    queryFn: () => getPage<PublicUser>('/api/v1/users/search', { q }, page, limit),
    placeholderData: keepPreviousData,
  })
}

/**
 * Issues and pull requests, open and closed, whose title or text holds q, in
 * every repository the viewer may read (private ones only for those who may).
 */
export function useIssueSearch(q: string, page: number, limit: number) {
  return useQuery({
    queryKey: ['issue-search', q, page, limit],
    queryFn: () => getPage<Issue>('/api/v1/repos/issues/search', { q, state: 'all' }, page, limit),
    placeholderData: keepPreviousData,
  })
}

/** The page of an issue or pull request a search found, from the repository it names. */
export function foundIssueHref(issue: Issue): string | null {
  const repo = issue.repository
  if (!repo) return null
  return `${repoHref.section(repo.owner, repo.name, issue.pull_request ? 'pulls' : 'issues')}/${issue.number}`
}
