// Test helpers for the forge pages: a fetch stub that answers by method and
// URL and records what was sent, and fixtures in Gitea's shapes.
import { vi } from 'vitest'
import { json } from '@/test/render'
import type { Commit, CommitUser, Repository } from '@/lib/forge/api'
import { schemaFixture } from './schemaFixture'

type Answer = unknown | ((body: unknown, url: URL) => Response | unknown)

/**
 * Stubs fetch with answers keyed "METHOD /path" (the query string is
 * ignored unless the key has one, then it must match exactly). An answer
 * is a JSON body, a Response, or a function of the request's JSON body.
 * Anything else is the API's 404.
 */
export function stubApi(answers: Record<string, Answer>) {
  const calls: { method: string; url: string; body: unknown }[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const method = (init?.method ?? 'GET').toUpperCase()
    const body = typeof init?.body === 'string' ? safeJSON(init.body) : undefined
    calls.push({ method, url: url.pathname + url.search, body })
    const answer = answers[`${method} ${url.pathname}${url.search}`] ?? answers[`${method} ${url.pathname}`]
    if (answer === undefined) return json({ message: 'not found', code: 'not_found' }, 404)
    const value = await (typeof answer === 'function' ? (answer as (b: unknown, u: URL) => unknown)(body, url) : answer)
    if (value instanceof Response) return value
    return json(value)
  })
  vi.stubGlobal('fetch', fetchMock)
  return { fetchMock, calls, answers, sent: (method: string, path: string) => calls.filter((c) => c.method === method && c.url.split('?')[0] === path) }
}

function safeJSON(s: string): unknown {
  try {
    return JSON.parse(s)
  } catch {
    return s
  }
}

export const text = (body: string, status = 200, type = 'text/plain') => new Response(body, { status, headers: { 'Content-Type': type } })
export const noContent = () => new Response(null, { status: 204 })

export function repoFixture(overrides: Partial<Repository> = {}): Repository {
  return {
    ...schemaFixture('Repo', {
      id: 7,
      owner: schemaFixture('ForgeUser', { id: 1, login: 'ada' }),
      name: 'engine',
      full_name: 'ada/engine',
      description: 'An analytical engine',
      clone_url: 'http://localhost/ada/engine.git',
      // The node holds the git data, as it says for a repository it serves.
      has_git_data: true,
      default_branch: 'main',
      stars_count: 3,
      forks_count: 1,
      watchers_count: 2,
      open_issues_count: 4,
      open_pr_counter: 1,
      updated_at: '2026-01-02T00:00:00Z',
      permissions: schemaFixture('Perm', { pull: true }),
    }),
    ...overrides,
  }
}

/** A commit as the API lists it, its message written by who (git's author and committer), with over's fields on top. */
export function commitFixture(sha: string, message: string, who: Partial<CommitUser>, over: Partial<Commit> = {}): Commit {
  const zero = schemaFixture('Commit')
  const signature = schemaFixture('Identity', who)
  return { ...zero, sha, commit: { ...zero.commit, message, author: signature, committer: signature }, ...over }
}

export const REPO = '/api/v1/repos/ada/engine'

/**
 * Matches a diff line's code cell by its whole code, without the +/- sign.
 * Highlighting splits a line across spans once its grammar loads, so a plain
 * text query finds the line only while the grammar is still loading.
 */
export const codeCell = (code: string) => (_: string, el: Element | null) =>
  el?.tagName === 'TD' && el.classList.contains('diff-code') && el.textContent?.slice(1) === code
