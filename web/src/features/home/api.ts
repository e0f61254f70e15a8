import { useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'

export interface Post {
  slug: string
  title: string
  date: string
  category: string
  author: string
  summary: string
  featured: boolean
  html?: string
}

export function usePosts() {
  return useQuery({ queryKey: ['blog'], queryFn: () => getJSON<Post[]>('/api/v1/blog') })
}

export function usePost(slug: string) {
  return useQuery({ queryKey: ['blog', slug], queryFn: () => getJSON<Post>(`/api/v1/blog/${encodeURIComponent(slug)}`) })
}
