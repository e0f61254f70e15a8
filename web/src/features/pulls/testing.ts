import type { PullRequest } from './api'

/** The head commit of pullFixture's pull request. */
export const PULL_HEAD = 'b'.repeat(40)

/** An open pull request #4 by bob, fast into main, for the screen tests; overrides replace fields. */
export function pullFixture(overrides: Partial<PullRequest> = {}): PullRequest {
  return {
    id: 201,
    number: 4,
    title: 'Faster mill',
    body: '',
    user: { id: 2, login: 'bob' },
    labels: [],
    state: 'open',
    comments: 0,
    mergeable: true,
    merged: false,
    base: { label: 'main', ref: 'main', sha: 'a'.repeat(40) },
    head: { label: 'fast', ref: 'fast', sha: PULL_HEAD },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...overrides,
  }
}
