import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { CommunityOverview, RoleHolder } from '@/lib/community'
import { fakeChain, OTHER } from '@/test/chain'
import { repoFixture } from '@/test/forge'
import { json, preloadNamespaces, renderScreen, stubFetch, WALLET } from '@/test/render'
import { schemaFixture } from '@/test/schemaFixture'
import CommunityScreen from './CommunityScreen'

preloadNamespaces('communityPage', 'wallet')

const engine = repoFixture({ id: 7, full_name: 'ada/engine', name: 'engine', stars_count: 9 })
const loom = repoFixture({ id: 8, full_name: 'grace/loom', name: 'loom', stars_count: 2 })

function overview(over: Partial<CommunityOverview> = {}): CommunityOverview {
  return {
    height: 1234,
    repositories: 42,
    contributors: 17,
    proposals: 6,
    open_proposals: 2,
    window_days: 7,
    trending: [
      { ...schemaFixture('TrendingRepo', { recent_stars: 2, recent_activity: 11 }), repository: loom },
      { ...schemaFixture('TrendingRepo', { recent_stars: 1, recent_activity: 3 }), repository: engine },
    ],
    most_starred: [engine, loom],
    top_contributors: [schemaFixture('index.Rank', { rank: 1, address: OTHER, name: 'grace', earned: 90_000_000, contributions: 4, reputation: 12 })],
    roles: [
      { role: 'forum_moderator', holders: 0 },
      { role: 'event_organizer', holders: 1 },
      { role: 'ambassador', holders: 1 },
    ],
    topics: 3,
    latest_topics: [schemaFixture('ForumTopic', { id: 12, title: 'How do I mirror a repository?', category: 'help', author: schemaFixture('ForgeUser', { login: 'ada' }), replies: 4, created_at: '2026-11-25T09:00:00Z' })],
    upcoming_events: [schemaFixture('Event', { id: 5, title: 'Contributor call', starts_at: '2026-12-03T17:00:00Z', timezone: 'UTC', online_url: 'https://meet.example/call' })],
    ...over,
  }
}

const holder = (login: string, role: RoleHolder['role'], location = ''): RoleHolder => ({
  user: schemaFixture('User', { id: 1, login, location, wallet_address: login === 'grace' ? OTHER : WALLET }),
  role,
  height: 3,
  proposal: 1,
  granted: '2026-11-20T10:00:00Z',
})

/** The node: a chain whose height a test moves, the overview it answers with, and the role holders. */
function stubNode(state: { overview: CommunityOverview | null; holders: RoleHolder[] }) {
  const chain = fakeChain()
  stubFetch(async (input) => {
    const url = new URL(String(input), 'http://node.test')
    if (url.pathname === '/api/v1/chain/params') return json(chain.params)
    if (url.pathname === '/api/v1/chain/status') return json(chain.status)
    if (url.pathname === '/api/v1/community/overview') return state.overview ? json(state.overview) : json({ message: 'the index is down', code: 'internal' }, 500)
    if (url.pathname === '/api/v1/community/roles') {
      const res = json(state.holders)
      res.headers.set('X-Total-Count', String(state.holders.length))
      return res
    }
    return json({ message: 'not found', code: 'not_found' }, 404)
  })
  return chain
}

describe('CommunityScreen', () => {
  it('shows the live figures, the project and contributor lists with links, and the role holders', async () => {
    stubNode({ overview: overview(), holders: [holder('ev', 'event_organizer', 'Lagos'), holder('grace', 'ambassador')] })
    renderScreen(<CommunityScreen />, '/community')
    expect(await screen.findByRole('heading', { level: 1, name: 'Community' })).toBeTruthy()
    expect((await screen.findByTestId('figure-repositories')).textContent).toBe('42')
    expect(screen.getByTestId('figure-contributors').textContent).toBe('17')
    expect(screen.getByTestId('figure-proposals').textContent).toBe('6')
    expect(screen.getByTestId('figure-openProposals').textContent).toBe('2')
    expect(screen.getByTestId('figure-topics').textContent).toBe('3')
    expect(screen.getByText('As of block 1,234.')).toBeTruthy()

    const trending = screen.getByRole('region', { name: 'Trending' })
    const trendingLinks = within(trending).getAllByRole('link')
    expect(trendingLinks.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['grace/loom', '/grace/loom'],
      ['ada/engine', '/ada/engine'],
    ])
    expect(within(trending).getByText('2 new stars · 11 actions')).toBeTruthy()
    const starred = screen.getByRole('region', { name: 'Most starred' })
    expect(within(starred).getAllByRole('link').map((a) => a.textContent)).toEqual(['ada/engine', 'grace/loom'])
    expect(within(starred).getByText('Stars: 9')).toBeTruthy()
    const contributors = screen.getByRole('region', { name: 'Top contributors' })
    expect(within(contributors).getByRole('link', { name: 'grace' }).getAttribute('href')).toBe('/grace')
    expect(await within(contributors).findByText('Earned 90 DFG · contributions: 4')).toBeTruthy()
    const topics = screen.getByRole('region', { name: 'Latest forum topics' })
    expect(within(topics).getByRole('link', { name: 'How do I mirror a repository?' }).getAttribute('href')).toBe('/forum/topic/12')
    expect(within(topics).getByText('by ada · replies: 4')).toBeTruthy()
    const events = screen.getByRole('region', { name: 'Upcoming events' })
    expect(within(events).getByRole('link', { name: 'Contributor call' }).getAttribute('href')).toBe('/events/5')
    expect(within(events).getByText(/online/).querySelector('time')?.getAttribute('dateTime')).toBe('2026-12-03T17:00:00Z')

    const organizers = await screen.findByRole('listitem', { name: 'Event organizers (1)' })
    expect(within(organizers).getByRole('link', { name: 'ev' }).getAttribute('href')).toBe('/ev')
    expect(within(organizers).getByText('· Lagos')).toBeTruthy()
    expect(within(screen.getByRole('listitem', { name: 'Forum moderators (0)' })).getByText('No one holds this role yet.')).toBeTruthy()
    const ambassadors = screen.getByRole('listitem', { name: 'Ambassadors (1)' })
    expect(within(ambassadors).getByRole('link', { name: 'grace' }).getAttribute('href')).toBe('/grace')
    expect(within(ambassadors).getByRole('link', { name: 'The ambassador program' }).getAttribute('href')).toBe('/ambassadors')
    expect(screen.getByRole('link', { name: 'Propose a role change' }).getAttribute('href')).toBe('/governance/new?type=role')
  }, 15_000)

  it('shows each list’s empty state on a new chain', async () => {
    stubNode({
      overview: overview({
        repositories: 0,
        contributors: 0,
        proposals: 0,
        open_proposals: 0,
        trending: [],
        most_starred: [],
        top_contributors: [],
        topics: 0,
        latest_topics: [],
        upcoming_events: [],
      }),
      holders: [],
    })
    renderScreen(<CommunityScreen />, '/community')
    expect(await screen.findByText('Nothing happened in the last 7 days.')).toBeTruthy()
    expect(screen.getByText('No public repository has a star yet.')).toBeTruthy()
    expect(screen.getByText('No contribution has been rewarded yet.')).toBeTruthy()
    expect(screen.getByText('No one has opened a topic yet.')).toBeTruthy()
    expect(screen.getByText('No event is planned yet.')).toBeTruthy()
    expect(await screen.findAllByText('No one holds this role yet.')).toHaveLength(3)
  })

  it('says when the figures cannot be read, and retries', async () => {
    const state: { overview: CommunityOverview | null; holders: RoleHolder[] } = { overview: null, holders: [] }
    stubNode(state)
    renderScreen(<CommunityScreen />, '/community')
    const retry = await screen.findByRole('button', { name: 'Retry' })
    state.overview = overview()
    fireEvent.click(retry)
    expect((await screen.findByTestId('figure-repositories')).textContent).toBe('42')
  })

  it('refreshes the figures when a new block lands', async () => {
    const state = { overview: overview(), holders: [] }
    const chain = stubNode(state)
    renderScreen(<CommunityScreen />, '/community')
    expect((await screen.findByTestId('figure-repositories')).textContent).toBe('42')
    state.overview = overview({ repositories: 43, height: 1235 })
    chain.status = { ...chain.status, height: chain.status.height + 1 }
    await waitFor(() => expect(screen.getByTestId('figure-repositories').textContent).toBe('43'), { timeout: 6000 })
  }, 15_000)
})
