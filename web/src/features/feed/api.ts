// The signed-in user's feed (GET /api/v1/user/feed, dForge's own): the
// actions of the people they follow and in the repositories they watch or
// star, from the same projection as Home's recent activity.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { getPage } from '@/lib/forge/api'

export type FeedType = 'repo.create' | 'issue.open' | 'pr.open' | 'comment' | 'review' | 'pr.merge' | 'push'

/** One action, as the API sends it. */
/** The server leaves out the fields an activity's kind has no use for (omitempty); the document types type as any string. */
export type FeedItem = Optional<Omit<Schema<'index.Activity'>, 'type' | 'repo'>, 'number' | 'title' | 'isPull' | 'state' | 'ref' | 'commentId' | 'content'> & {
  type: FeedType
  repo: Optional<Schema<'index.ActivityRepo'>, 'private'>
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
