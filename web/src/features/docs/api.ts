import { useQuery } from '@tanstack/react-query'
import type { Page } from '@/features/content'
import { getJSON, retryUnlessNotFound } from '@/lib/http'

/** A document in the docs listing; the list endpoint leaves html empty. */
export type DocSummary = Pick<Page, 'slug' | 'title'>

// The server's slug rule (internal/pages): anything else is answered 404, so
// the client does not ask for it.
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

export function isDocSlug(slug: string): boolean {
  return SLUG.test(slug)
}

/** Every document under content/docs, the index first. */
export function useDocs() {
  return useQuery({ queryKey: ['docs'], queryFn: () => getJSON<DocSummary[]>('/api/v1/docs') })
}

/** One rendered document; a NotFoundError when there is no such slug. */
export function useDoc(slug: string) {
  return useQuery({
    queryKey: ['docs', slug],
    queryFn: () => getJSON<Page>(`/api/v1/docs/${encodeURIComponent(slug)}`),
    retry: retryUnlessNotFound,
    enabled: isDocSlug(slug),
  })
}

/** Where a document lives in the app: the index is /docs itself. */
export function docPath(slug: string): string {
  return slug === 'index' ? '/docs' : `/docs/${slug}`
}
