import { useQuery } from '@tanstack/react-query'
import { getJSON, retryUnlessNotFound } from '@/lib/http'

/** A blog post as the server sends it (internal/pages/blog.go); html is empty in the list. */
export interface Post {
  slug: string
  title: string
  /** YYYY-MM-DD from the post's front matter. */
  date: string
  category: string
  author: string
  summary: string
  featured: boolean
  html?: string
}

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
