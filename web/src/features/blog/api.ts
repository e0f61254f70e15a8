import { useQuery } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { getJSON, retryUnlessNotFound } from '@/lib/http'

/** A blog post as the server sends it (internal/pages/blog.go); html is left out of the list. */
export type Post = Optional<Schema<'pages.Post'>, 'html'>

/** Every post, newest first. */
export function usePosts() {
  return useQuery({ queryKey: ['blog'], queryFn: () => getJSON<Post[]>('/api/v1/blog') })
}

/** One rendered post; a NotFoundError when there is no such slug. */
export function usePost(slug: string) {
  return useQuery({
    queryKey: ['blog', slug],
    queryFn: () => getJSON<Post>(`/api/v1/blog/${encodeURIComponent(slug)}`),
    retry: retryUnlessNotFound,
  })
}
