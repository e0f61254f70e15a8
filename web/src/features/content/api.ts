import { useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'

export interface Page {
  slug: string
  title: string
  html: string
}

/** A Markdown page from content/pages, rendered by the server. */
export function usePage(slug: string) {
  return useQuery({ queryKey: ['pages', slug], queryFn: () => getJSON<Page>(`/api/v1/pages/${encodeURIComponent(slug)}`) })
}
