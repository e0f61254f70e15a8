import { schemaFixture } from '@/test/schemaFixture'
import type { PullRequest } from './api'

/** The head commit of pullFixture's pull request. */
export const PULL_HEAD = 'b'.repeat(40)

/** An open pull request #4 by bob, fast into main, for the screen tests; overrides replace fields. */
export function pullFixture(overrides: Partial<PullRequest> = {}): PullRequest {
  return {
    ...schemaFixture('Pull', {
      id: 201,
      number: 4,
      title: 'Faster mill',
      user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
      mergeable: true,
      base: schemaFixture('PrBranch', { label: 'main', ref: 'main', sha: 'a'.repeat(40) }),
      head: schemaFixture('PrBranch', { label: 'fast', ref: 'fast', sha: PULL_HEAD }),
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    }),
    state: 'open',
    ...overrides,
  }
}
