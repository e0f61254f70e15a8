// The home page's node-wide reads (dForge's own, not Gitea's): recent
// activity and top contributors over public repositories, and the node's
// team. Types carry the fields the page reads.
import { useQuery } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { getJSON } from '@/lib/http'

/** An account with its chain username (the claimed one, else its default). */
export type Person = Schema<'index.User'>

export type ActivityType = 'repo.create' | 'issue.open' | 'pr.open' | 'comment' | 'review' | 'pr.merge' | 'push'

/** One action in a public repository (GET /api/v1/activity). */
/** The server leaves out the fields an activity's kind has no use for (omitempty); the document types type as any string. */
export type Activity = Optional<Omit<Schema<'index.Activity'>, 'type' | 'repo'>, 'number' | 'title' | 'isPull' | 'state' | 'ref' | 'commentId' | 'content'> & {
  type: ActivityType
  repo: Optional<Schema<'index.ActivityRepo'>, 'private'>
}

/** An account's contributions to public repositories over the last 30 days (GET /api/v1/contributors/top). */
export type Contributor = Schema<'index.Contributor'>

export const homeKeys = {
  activity: (limit: number) => ['home', 'activity', limit] as const,
  contributors: (limit: number) => ['home', 'contributors', limit] as const,
  team: ['home', 'team'] as const,
}

/** The newest limit actions in public repositories on this node. */
export function useRecentActivity(limit: number) {
  return useQuery({
    queryKey: homeKeys.activity(limit),
    queryFn: () => getJSON<Activity[]>(`/api/v1/activity?limit=${limit}`),
  })
}

/** The limit most active contributors of the last 30 days of chain time. */
export function useTopContributors(limit: number) {
  return useQuery({
    queryKey: homeKeys.contributors(limit),
    queryFn: () => getJSON<Contributor[]>(`/api/v1/contributors/top?limit=${limit}`),
  })
}

/** The node's maintainers, as its operator configured them; they change only with a restart. */
export function useTeam() {
  return useQuery({
    queryKey: homeKeys.team,
    queryFn: () => getJSON<Person[]>('/api/v1/node/team'),
    staleTime: Infinity,
  })
}
