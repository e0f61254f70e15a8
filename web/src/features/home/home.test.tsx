import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { repoFixture, stubApi } from '@/test/forge'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import type { Activity, Contributor } from './api'
import HomeScreen from './HomeScreen'

preloadNamespaces('home')

const ALICE = { address: '0x52908400098527886E0F7030069857D2E4169EE7', username: 'alice' }
const BOB = { address: '0x8617E340B3D01FA5F11F306F4090FD50E238070D', username: 'bob' }
const MILL = { id: 1, owner: 'alice', name: 'mill', fullName: 'alice/mill' }

function contributor(who: typeof ALICE, total: number): Contributor {
  return { ...who, total, pushes: total, pullsOpened: 0, pullsMerged: 0, reviews: 0, issuesOpened: 0, comments: 0 }
}

function activity(overrides: Partial<Activity>): Activity {
  return { id: 1, type: 'repo.create', actor: ALICE, repo: MILL, height: 10, time: new Date(Date.now() - 3 * 3600_000).toISOString(), ...overrides }
}

/** The node-wide answers of the home page; each may be overridden. */
function stubHome(answers: Record<string, unknown> = {}) {
  return stubApi({
    'GET /api/v1/repos/search': { ok: true, data: [] },
    'GET /api/v1/blog': [],
    'GET /api/v1/contributors/top': [],
    'GET /api/v1/activity': [],
    'GET /api/v1/node/team': [],
    ...answers,
  })
}

describe('HomeScreen', () => {
  it('shows the most starred repositories as trending', async () => {
    const api = stubHome({
      'GET /api/v1/repos/search': { ok: true, data: [repoFixture({ stars_count: 12 }), repoFixture({ id: 8, name: 'loom', full_name: 'ada/loom', stars_count: 1, description: '' })] },
    })
    renderScreen(<HomeScreen />, '/')
    const trending = await screen.findByRole('region', { name: 'Trending repositories' })
    expect((await within(trending).findByRole('link', { name: 'ada/engine' })).getAttribute('href')).toBe('/ada/engine')
    expect(within(trending).getByText(/12 stars/)).toBeTruthy()
    expect(within(trending).getByText(/1 star$/)).toBeTruthy()
    const params = new URL(api.sent('GET', '/api/v1/repos/search')[0].url, 'http://x').searchParams
    expect([params.get('sort'), params.get('order'), params.get('limit')]).toEqual(['stars', 'desc', '6'])
  })

  it('says honestly that there are no repositories yet, and links to creating one', async () => {
    stubHome()
    renderScreen(<HomeScreen />, '/')
    const trending = await screen.findByRole('region', { name: 'Trending repositories' })
    expect(await within(trending).findByText('No repositories yet. Create your first repository!')).toBeTruthy()
    expect(within(trending).getByRole('link', { name: 'Create a repository' }).getAttribute('href')).toBe('/new')
    expect(screen.getByRole('link', { name: /^Create repository/ }).getAttribute('href')).toBe('/new')
  })

  it('ranks the top contributors, each linking to their page', async () => {
    const api = stubHome({ 'GET /api/v1/contributors/top': [contributor(ALICE, 5), contributor(BOB, 1)] })
    renderScreen(<HomeScreen />, '/')
    const section = await screen.findByRole('region', { name: 'Top contributors' })
    const alice = await within(section).findByRole('link', { name: 'alice' })
    expect(alice.getAttribute('href')).toBe('/user/alice')
    const items = within(section).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual(['alice · 5 contributions', 'bob · 1 contribution'])
    expect(items[0].closest('ol')).toBeTruthy()
    expect(within(section).getByText('Contributions to public repositories in the last 30 days.')).toBeTruthy()
    expect(new URL(api.sent('GET', '/api/v1/contributors/top')[0].url, 'http://x').searchParams.get('limit')).toBe('5')
  })

  it('tells the recent activity as sentences that link to the people, repositories, issues and pull requests', async () => {
    const api = stubHome({
      'GET /api/v1/activity': [
        activity({ type: 'pr.merge', actor: BOB, number: 2, title: 'Fix the crash', isPull: true, height: 14 }),
        activity({ type: 'review', actor: BOB, number: 2, title: 'Fix the crash', isPull: true, state: 'approve', height: 13 }),
        activity({ type: 'comment', number: 3, title: 'Crash on start', height: 12 }),
        activity({ type: 'push', ref: 'refs/heads/main', height: 11 }),
        activity({ type: 'issue.open', actor: BOB, number: 3, title: 'Crash on start', height: 10 }),
        activity({ type: 'repo.create', height: 9 }),
      ],
    })
    renderScreen(<HomeScreen />, '/')
    const section = await screen.findByRole('region', { name: 'Recent activity' })
    const items = await within(section).findAllByRole('listitem')
    const sentences = items.map((li) => li.querySelector('span')?.textContent)
    expect(sentences).toEqual([
      'bob merged pull request #2 in alice/mill',
      'bob approved pull request #2 in alice/mill',
      'alice commented on issue #3 in alice/mill',
      'alice pushed to main in alice/mill',
      'bob opened issue #3 in alice/mill',
      'alice created alice/mill',
    ])
    const merge = within(items[0])
    expect(merge.getByRole('link', { name: 'bob' }).getAttribute('href')).toBe('/user/bob')
    expect(merge.getByRole('link', { name: '#2' }).getAttribute('href')).toBe('/alice/mill/pulls/2')
    expect(merge.getByRole('link', { name: 'alice/mill' }).getAttribute('href')).toBe('/alice/mill')
    expect(merge.getByText('Fix the crash')).toBeTruthy()
    expect(merge.getByText('3 hours ago')).toBeTruthy()
    expect(within(items[4]).getByRole('link', { name: '#3' }).getAttribute('href')).toBe('/alice/mill/issues/3')
    expect(new URL(api.sent('GET', '/api/v1/activity')[0].url, 'http://x').searchParams.get('limit')).toBe('10')
  })

  it('lists the node team, each linking to their page', async () => {
    stubHome({ 'GET /api/v1/node/team': [ALICE, { address: BOB.address, username: 'user-8617e340b3d0' }] })
    renderScreen(<HomeScreen />, '/')
    const section = await screen.findByRole('region', { name: 'Project team' })
    expect((await within(section).findByRole('link', { name: 'alice' })).getAttribute('href')).toBe('/user/alice')
    expect(within(section).getByRole('link', { name: 'user-8617e340b3d0' }).getAttribute('href')).toBe('/user/user-8617e340b3d0')
    expect(within(section).getByTitle(ALICE.address).textContent).toContain('0x5290…9EE7')
  })

  it('keeps the real empty states when nothing has happened and no team is named', async () => {
    stubHome()
    renderScreen(<HomeScreen />, '/')
    const contributors = await screen.findByRole('region', { name: 'Top contributors' })
    expect(await within(contributors).findByText('No contributions to public repositories in the last 30 days.')).toBeTruthy()
    expect(within(contributors).getByRole('link', { name: 'See the leaderboard' }).getAttribute('href')).toBe('/leaderboard')
    const activitySection = screen.getByRole('region', { name: 'Recent activity' })
    expect(await within(activitySection).findByText('No activity yet.')).toBeTruthy()
    const team = screen.getByRole('region', { name: 'Project team' })
    expect(await within(team).findByText('This node has not named its maintainers yet.')).toBeTruthy()
  })

  it('offers a retry when the activity cannot be loaded', async () => {
    stubHome({ 'GET /api/v1/activity': () => json({ message: 'down', code: 'internal' }, 500) })
    renderScreen(<HomeScreen />, '/')
    const section = await screen.findByRole('region', { name: 'Recent activity' })
    expect(await within(section).findByRole('alert')).toBeTruthy()
    expect(within(section).getByRole('button', { name: 'Retry' })).toBeTruthy()
  })

  it('"Report issue" is a link that asks which repository, searching as you type, and links to its new-issue form', async () => {
    const api = stubHome({
      'GET /api/v1/repos/search': (_: unknown, url: URL) =>
        url.searchParams.get('q') === 'loo'
          ? { ok: true, data: [repoFixture({ id: 8, name: 'loom', full_name: 'ada/loom', private: true })] }
          : url.searchParams.get('q') === 'zzz'
            ? { ok: true, data: [] }
            : { ok: true, data: [repoFixture()] },
    })
    renderScreen(<HomeScreen />, '/')
    const action = screen.getByRole('link', { name: /^Report issue/ })
    expect(action.getAttribute('aria-haspopup')).toBe('dialog')
    // Opened in a new tab or copied, the link lands on Home with the picker open.
    expect(action.getAttribute('href')).toBe('/?new=issues')
    action.focus()
    fireEvent.click(action)
    const dialog = await screen.findByRole('dialog', { name: 'Report an issue' })
    expect(window.location.search).toBe('?new=issues')
    const box = within(dialog).getByRole('searchbox', { name: 'Search repositories' })
    expect(document.activeElement).toBe(box)
    expect((await within(dialog).findByRole('link', { name: /ada\/engine/ })).getAttribute('href')).toBe('/ada/engine/issues/new')

    fireEvent.change(box, { target: { value: 'loo' } })
    const loom = await within(dialog).findByRole('link', { name: /ada\/loom/ })
    expect(loom.getAttribute('href')).toBe('/ada/loom/issues/new')
    expect(within(loom).getByText('Private')).toBeTruthy()
    expect(api.sent('GET', '/api/v1/repos/search').some((c) => c.url.includes('q=loo'))).toBe(true)
    // The arrow keys go from the box to the results and back.
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(loom)
    fireEvent.keyDown(loom, { key: 'ArrowUp' })
    expect(document.activeElement).toBe(box)

    fireEvent.change(box, { target: { value: 'zzz' } })
    expect(await within(dialog).findByText('No repository matches “zzz”.')).toBeTruthy()
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(action)
    expect(window.location.search).toBe('')
  })

  it('"New pull request" opens the chosen repository\'s new-pull-request form', async () => {
    stubHome({ 'GET /api/v1/repos/search': { ok: true, data: [repoFixture()] } })
    renderScreen(<HomeScreen />, '/')
    fireEvent.click(screen.getByRole('link', { name: /^New pull request/ }))
    const dialog = await screen.findByRole('dialog', { name: 'New pull request' })
    expect((await within(dialog).findByRole('link', { name: /ada\/engine/ })).getAttribute('href')).toBe('/ada/engine/pulls/new')
  })

  it('opens the picker a link names, and ignores a value it does not know', async () => {
    stubHome({ 'GET /api/v1/repos/search': { ok: true, data: [repoFixture()] } })
    const { unmount } = renderScreen(<HomeScreen />, '/?new=pulls')
    const dialog = await screen.findByRole('dialog', { name: 'New pull request' })
    expect((await within(dialog).findByRole('link', { name: /ada\/engine/ })).getAttribute('href')).toBe('/ada/engine/pulls/new')
    unmount()

    renderScreen(<HomeScreen />, '/?new=wiki')
    expect(await screen.findByRole('region', { name: 'Trending repositories' })).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('leaves a click with a modifier key to the browser, which opens the link in a new tab', () => {
    stubHome()
    renderScreen(<HomeScreen />, '/')
    const action = screen.getByRole('link', { name: /^Report issue/ })
    // jsdom cannot open a tab: this listener, on the link itself, runs before React's and stands in for the browser.
    action.addEventListener('click', (e) => e.preventDefault())
    fireEvent.click(action, { ctrlKey: true })
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(action)
    expect(screen.getByRole('dialog', { name: 'Report an issue' })).toBeTruthy()
  })
})
