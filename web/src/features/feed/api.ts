// The signed-in user's feed (GET /api/v1/user/feed, dForge's own): the
// actions of the people they follow and in the repositories they watch or
// star, from the same projection as Home's recent activity.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getPage } from '@/lib/forge/api'

export type FeedType = 'repo.create' | 'issue.open' | 'pr.open' | 'comment' | 'review' | 'pr.merge' | 'push'

/** One action, as the API sends it. */
export interface FeedItem {
  id: number
  type: FeedType
  actor: { address: string; username: string }
  repo: { id: number; owner: string; name: string; fullName: string; private?: boolean }
  /** The issue or pull request acted on; none for repo.create and push. */
  number?: number
  title?: string
  isPull?: boolean
  /** A review's verdict. */
  state?: 'approve' | 'request_changes' | 'comment'
  /** The ref a push updated, e.g. refs/heads/main. */
  ref?: string
  /** A comment's id and opening text. */
  commentId?: number
  content?: string
  height: number
  time: string
}

export const FEED_PAGE_SIZE = 20

/** One page of the signed-in user's feed, newest first. */
export function useFeed(page: number) {
  return useQuery({
    queryKey: ['feed', page],
    queryFn: () => getPage<FeedItem>('/api/v1/user/feed', {}, page, FEED_PAGE_SIZE),
    placeholderData: keepPreviousData,
  })
}
