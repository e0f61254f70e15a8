import { useMutation } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { apiError } from '@/lib/http'

/**
 * Renders Markdown on the node with Gitea's POST /markdown. The answer is
 * sanitized HTML sent as text/html, so this reads text, not JSON.
 */
export async function renderMarkdown(text: string): Promise<string> {
  const res = await fetch('/api/v1/markdown', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/html' },
    body: JSON.stringify({ text, mode: 'gfm' }),
  })
  // Errors are JSON {message, code} like everywhere else in the API.
  if (!res.ok) throw await apiError(res)
  return res.text()
}

/**
 * The latest rendered preview. A failed render keeps the last good preview;
 * with several renders in flight only the latest one's result is shown.
 */
export function useMarkdownPreview() {
  const [html, setHtml] = useState<string | null>(null)
  const mutation = useMutation({ mutationFn: renderMarkdown })
  const { mutate } = mutation
  // Per-call callbacks run only for the most recent mutate, so a slow, older
  // answer never replaces a newer one.
  const render = useCallback((text: string) => mutate(text, { onSuccess: setHtml }), [mutate])
  return { html, render, isPending: mutation.isPending, error: mutation.error }
}
