import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Issue } from '@/features/issues'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { preloadNamespaces, renderScreen } from '@/test/render'
import PullListScreen from './PullListScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('pulls', 'issues', 'tracker', 'repositories', 'wallet')

// The pull request list takes the issue list's filters, kept in the URL,
// and reads the issue route with type=pulls.

function pr(overrides: Partial<Issue> = {}): Issue {
  return {
    ...schemaFixture('Issue', {
      id: 201,
      number: 4,
      title: 'Faster mill',
      body: '',
      user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
      labels: [schemaFixture('Label', { id: 5, name: 'bug', color: 'ee0701' })],
      comments: 0,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      pull_request: schemaFixture('PullMeta', { merged: true }),
    }),
    state: 'open',
    state_reason: '',
    ...overrides,
  }
}

function listApi(items: Issue[]) {
  return stubApi({
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${REPO}/issues`]: items,
    [`GET ${REPO}/labels`]: [{ id: 5, name: 'bug', color: 'ee0701' }],
    [`GET ${REPO}/milestones`]: [{ id: 9, title: 'v1', state: 'open', open_issues: 1, closed_issues: 0 }],
    [`GET ${REPO}/assignees`]: [schemaFixture('ForgeUser', { id: 2, login: 'bob' })],
  })
}

const lastSent = (api: ReturnType<typeof stubApi>) => new URL(api.sent('GET', `${REPO}/issues`).at(-1)?.url ?? '', 'http://x').searchParams
const urlParams = () => new URLSearchParams(window.location.search)

describe('pull request list filters', () => {
  it('reads the filters from the URL into a request for pull requests, and writes new ones back', async () => {
    const api = listApi([pr()])
    renderScreen(<PullListScreen />, '/ada/engine/pulls?author=bob&labels=bug&sort=recentupdate')
    expect((await screen.findByRole('link', { name: 'Faster mill' }, { timeout: 5000 })).getAttribute('href')).toBe('/ada/engine/pulls/4')
    expect(screen.getByText('Merged')).toBeTruthy()
    expect(Object.fromEntries(lastSent(api))).toEqual({ state: 'open', type: 'pulls', created_by: 'bob', labels: 'bug', sort: 'recentupdate', page: '1', limit: '25' })

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search pull requests' }), { target: { value: 'mill' } })
    fireEvent.change(screen.getByLabelText('Sort'), { target: { value: 'oldest' } })
    await waitFor(() => expect([lastSent(api).get('q'), lastSent(api).get('sort'), lastSent(api).get('type')]).toEqual(['mill', 'oldest', 'pulls']))
    expect(Object.fromEntries(urlParams())).toEqual({ author: 'bob', labels: 'bug', sort: 'oldest', q: 'mill' })
  })

  it('says no pull request matches when the filters leave none', async () => {
    listApi([])
    renderScreen(<PullListScreen />, '/ada/engine/pulls?milestone=v1')
    expect(await screen.findByText('No pull requests match these filters.', {}, { timeout: 5000 })).toBeTruthy()
  })
})
