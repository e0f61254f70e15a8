import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import DashboardScreen from './DashboardScreen'
import type { Dashboard, DashIssue } from './api'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('dashboard')

function issue(n: number, title: string, pull = false): DashIssue {
  const kind = pull ? 'pulls' : 'issues'
  return schemaFixture('Issue', {
    id: n,
    number: n,
    title,
    html_url: `http://node/alice/app/${kind}/${n}`,
    state: 'open',
    updated_at: '2026-01-02T03:04:05Z',
    user: schemaFixture('ForgeUser', { login: 'alice' }),
    repository: schemaFixture('RepoMeta', { full_name: 'alice/app' }),
    pull_request: pull ? schemaFixture('PullMeta', { html_url: `http://node/alice/app/pulls/${n}` }) : null,
  })
}

const empty = { total_count: 0, items: [] }

const dashboard: Dashboard = {
  review_requests: { total_count: 12, items: [issue(1, 'Speed up the parser', true)], see_all: '/api/v1/repos/issues/search?type=pulls&state=open&review_requested=true' },
  assigned: { ...empty, see_all: '/api/v1/repos/issues/search?state=open&assigned=true' },
  pulls: {
    total_count: 1,
    see_all: '/api/v1/repos/issues/search?type=pulls&state=open&created=true',
    items: [
      {
        ...issue(4, 'Fix the build', true),
        head_sha: 'abc',
        approvals: 2,
        checks: {
          state: 'failure',
          total_count: 2,
          statuses: [
            schemaFixture('CommitStatus', { id: 1, context: 'lint', status: 'success' }),
            schemaFixture('CommitStatus', { id: 2, context: 'test', status: 'failure' }),
          ],
        },
      },
    ],
  },
  repositories: {
    total_count: 1,
    see_all: '/api/v1/user/dashboard/repos',
    items: [
      schemaFixture('Repo', { id: 9, full_name: 'ada/secret', description: 'Notes', html_url: 'http://node/ada/secret', private: true, updated_at: '2026-01-02T03:04:05Z', stars_count: 3, open_issues_count: 2, open_pr_counter: 1 }),
    ],
  },
  notifications: { ...empty, see_all: '/api/v1/notifications' },
}

describe('DashboardScreen', () => {
  it('asks a signed-out visitor to sign in and calls no API', async () => {
    const fetchMock = stubFetch()
    renderScreen(<DashboardScreen />, '/dashboard')
    expect(await screen.findByText('Sign in with your wallet to see your dashboard.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows each section with links, checks and empty states', async () => {
    stubFetch({ '/api/v1/user/dashboard': dashboard })
    signIn(WALLET)
    renderScreen(<DashboardScreen />, '/dashboard')
    const reviews = await screen.findByRole('region', { name: /Review requests/ })
    expect(within(reviews).getByRole('link', { name: 'Speed up the parser' }).getAttribute('href')).toBe('/alice/app/pulls/1')
    expect(within(reviews).getByText('12 in all')).toBeTruthy()
    expect(within(screen.getByRole('region', { name: /Assigned to you/ })).getByText('Nothing open is assigned to you.')).toBeTruthy()
    const pulls = screen.getByRole('region', { name: /Your open pull requests/ })
    expect(within(pulls).getByText('Checks failed')).toBeTruthy()
    expect(within(pulls).getByText('approvals: 2')).toBeTruthy()
    expect(within(pulls).getByTitle('lint: Checks passed, test: Checks failed')).toBeTruthy()
    const repos = screen.getByRole('region', { name: /Your repositories/ })
    expect(within(repos).getByRole('link', { name: 'ada/secret' }).getAttribute('href')).toBe('/ada/secret')
    expect(within(repos).getByText('Private')).toBeTruthy()
    const notes = screen.getByRole('region', { name: /Latest notifications/ })
    expect(within(notes).getByText('You are all caught up.')).toBeTruthy()
    expect(within(notes).getByRole('link', { name: 'Open all notifications' }).getAttribute('href')).toBe('/notifications')
  })

  it('pages through a section with its "see all" query', async () => {
    const calls: string[] = []
    stubFetch(async (input) => {
      const url = String(input)
      calls.push(url)
      if (url === '/api/v1/user/dashboard') return json(dashboard)
      const page = Number(new URL(url, 'http://node').searchParams.get('page'))
      const items = page === 1 ? Array.from({ length: 20 }, (_, i) => issue(100 + i, `Review ${i}`, true)) : [issue(200, 'Last review', true)]
      return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': '21' } })
    })
    signIn(WALLET)
    renderScreen(<DashboardScreen />, '/dashboard')
    const reviews = await screen.findByRole('region', { name: /Review requests/ })
    fireEvent.click(within(reviews).getByRole('button', { name: 'Show all 12' }))
    expect(await within(reviews).findByText('Review 0')).toBeTruthy()
    expect(calls).toContain('/api/v1/repos/issues/search?type=pulls&state=open&review_requested=true&page=1&limit=20')
    fireEvent.click(within(reviews).getByRole('button', { name: /Next/ }))
    expect(await within(reviews).findByText('Last review')).toBeTruthy()
    fireEvent.click(within(reviews).getByRole('button', { name: 'Show fewer' }))
    expect(await within(reviews).findByText('Speed up the parser')).toBeTruthy()
  })

  it('says so when the dashboard cannot load, and retries', async () => {
    let fail = true
    stubFetch(async () => (fail ? json({ message: 'boom', code: 'internal' }, 500) : json(dashboard)))
    signIn(WALLET)
    renderScreen(<DashboardScreen />, '/dashboard')
    const alert = await screen.findByRole('alert')
    fail = false
    fireEvent.click(within(alert).getByRole('button'))
    await waitFor(() => expect(screen.getByRole('region', { name: /Review requests/ })).toBeTruthy())
  })
})
