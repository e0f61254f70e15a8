// The home page's node-wide reads (dForge's own, not Gitea's): recent
// activity and top contributors over public repositories, and the node's
// team. Types carry the fields the page reads.
import { useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'

/** An account with its chain username (the claimed one, else its default). */
export interface Person {
  address: string
  username: string
}

export type ActivityType = 'repo.create' | 'issue.open' | 'pr.open' | 'comment' | 'review' | 'pr.merge' | 'push'

/** One action in a public repository (GET /api/v1/activity). */
export interface Activity {
  type: ActivityType
  actor: Person
  repo: { id: number; owner: string; name: string; fullName: string }
  /** The issue or pull request acted on; none for repo.create and push. */
  number?: number
  title?: string
  isPull?: boolean
  /** A review's verdict. */
  state?: 'approve' | 'request_changes' | 'comment'
  /** The ref a push updated, e.g. refs/heads/main. */
  ref?: string
  height: number
  time: string
}

/** An account's contributions to public repositories over the last 30 days (GET /api/v1/contributors/top). */
export interface Contributor extends Person {
  total: number
  pushes: number
  pullsOpened: number
  pullsMerged: number
  reviews: number
  issuesOpened: number
  comments: number
}

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
