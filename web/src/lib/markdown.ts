// Markdown rendered by the server (Gitea's POST /markdown) with the sanitizer
// that saved bodies get; the client never renders Markdown itself.
import { useQuery } from '@tanstack/react-query'
import { NotFoundError } from '@/components/QueryState'
import { apiError, apiFetch } from '@/lib/http'

/** text as sanitized HTML, GitHub-flavoured. */
export async function renderMarkdown(text: string): Promise<string> {
  const res = await apiFetch('/api/v1/markdown', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/html' },
    body: JSON.stringify({ text, mode: 'gfm' }),
  })
  if (res.status === 404) throw new NotFoundError('markdown')
  if (!res.ok) throw await apiError(res)
  return res.text()
}

/** The HTML of text, fetched when enabled and text is not blank; the same text is rendered once. */
export function useRenderedMarkdown(text: string, enabled = true) {
  return useQuery({
    queryKey: ['markdown', text],
    queryFn: () => renderMarkdown(text),
    enabled: enabled && text.trim() !== '',
    staleTime: Infinity,
  })
}
