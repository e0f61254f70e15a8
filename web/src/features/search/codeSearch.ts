// Code search, a dForge extension: GET /api/v1/search/code across the
// repositories the viewer reads, GET /api/v1/repos/{owner}/{repo}/search/code
// in one. Both answer {total, items, languages}.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { NotFoundError } from '@/components/QueryState'
import type { Schema } from '@/lib/apiSchema'
import { repoApi } from '@/lib/forge/api'
import { apiError, apiFetch } from '@/lib/http'

// A matching line; each range is a matched word's [start, end) in characters
// (code points), a pair the document types as a list of numbers.
export type CodeLine = Omit<Schema<'codesearch.Line'>, 'ranges'> & { ranges: [number, number][] }

/** A file whose content or path holds every word of the query. */
export type CodeHit = Omit<Schema<'CodeHit'>, 'lines'> & { lines: CodeLine[] }

/** A page of hits, with the languages of every match, whatever the filter, most first. */
export type CodeSearchPage = Omit<Schema<'CodeSearch'>, 'items'> & { items: CodeHit[] }

export interface CodeSearchScope {
  owner: string
  repo: string
}

/**
 * A page of the files matching q: in scope's repository, or across every
 * repository the viewer reads, narrowed to repo ("owner/name") when given.
 */
export async function searchCode(q: string, language: string, page: number, limit: number, scope?: CodeSearchScope, repo = ''): Promise<CodeSearchPage> {
  const params = new URLSearchParams({ q, page: String(page), limit: String(limit) })
  if (language) params.set('language', language)
  if (repo && !scope) params.set('repo', repo)
  const path = scope ? `${repoApi(scope.owner, scope.repo)}/search/code` : '/api/v1/search/code'
  const res = await apiFetch(`${path}?${params}`)
  if (res.status === 404) throw new NotFoundError(`not found: ${path}`)
  if (!res.ok) throw await apiError(res)
  const body = (await res.json()) as Partial<CodeSearchPage>
  return { items: body.items ?? [], total: body.total ?? 0, languages: body.languages ?? [] }
}

/** The files of default branches matching q, in one repository (scope or repo) or all the viewer reads. */
export function useCodeSearch(q: string, language: string, page: number, limit: number, scope?: CodeSearchScope, repo = '') {
  return useQuery({
    queryKey: ['code-search', q, language, page, limit, scope?.owner ?? '', scope?.repo ?? '', repo],
    queryFn: () => searchCode(q, language, page, limit, scope, repo),
    placeholderData: keepPreviousData,
    enabled: q.trim() !== '',
  })
}

/** A line's text cut into plain and matched parts, by code points. */
export function highlightParts(text: string, ranges: [number, number][]): { text: string; match: boolean }[] {
  const chars = Array.from(text)
  const parts: { text: string; match: boolean }[] = []
  let at = 0
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start) continue
    if (start > at) parts.push({ text: chars.slice(at, start).join(''), match: false })
    parts.push({ text: chars.slice(start, end).join(''), match: true })
    at = end
  }
  if (at < chars.length) parts.push({ text: chars.slice(at).join(''), match: false })
  return parts
}

/** Whether s names one repository as owner/name, the form the repository filter takes. */
export function isRepoName(s: string): boolean {
  return /^[^/\s]+\/[^/\s]+$/.test(s)
}
