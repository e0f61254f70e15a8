import { useQuery } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { getJSON } from '@/lib/http'

export type Page = Schema<'pages.Page'>

/** A Markdown page from content/pages, rendered by the server. */
export function usePage(slug: string) {
  return useQuery({ queryKey: ['pages', slug], queryFn: () => getJSON<Page>(`/api/v1/pages/${encodeURIComponent(slug)}`) })
}
