import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { repoFixture, stubApi } from '@/test/forge'
import { json, preloadNamespaces, renderScreen, WALLET } from '@/test/render'
import SearchScreen from './SearchScreen'

preloadNamespaces('search', 'issues', 'wallet')

const EMPTY = 'No results found. Try a different search.'
const param = (name: string) => new URLSearchParams(window.location.search).get(name)
const paramsOf = (url: string | undefined) => Object.fromEntries(new URL(url ?? '', 'http://x').searchParams)

const GRACE = {
  id: 2,
  login: 'grace',
  full_name: 'Grace Hopper',
  description: 'Compilers, mostly.',
  location: '',
  website: '',
  created: '2026-11-01T10:00:00Z',
  wallet_address: WALLET,
}

const ISSUE = {
  id: 117440516,
  number: 4,
  title: 'Engine overheats',
  body: '',
  user: { id: 0, login: 'ada' },
  labels: [],
  state: 'open',
  comments: 0,
  created_at: '2026-01-02T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
  pull_request: null,
  repository: { id: 7, name: 'engine', owner: 'ada', full_name: 'ada/engine' },
}

const PULL = {
  ...ISSUE,
  id: 134217735,
  number: 7,
  title: 'Faster looms',
  state: 'closed',
  pull_request: { merged: true, merged_at: '2026-01-03T00:00:00Z' },
  repository: { id: 8, name: 'loom', owner: 'grace', full_name: 'grace/loom' },
}

/** A page of a list as the API answers it: the body with X-Total-Count. */
const page = (body: unknown, total: number) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) } })

describe('SearchScreen', () => {
  it('prompts for a query before one is submitted', async () => {
    const api = stubApi({})
    renderScreen(<SearchScreen />, '/search')
    expect(await screen.findByText(/press Search to find repositories/)).toBeTruthy()
    expect(screen.queryByText(EMPTY)).toBeNull()
    expect(api.fetchMock).not.toHaveBeenCalled()
  })

  it('searches repositories when a query is submitted, shows the empty state, and keeps the query in the URL', async () => {
    const api = stubApi({ 'GET /api/v1/repos/search': { ok: true, data: [] } })
    const historyLength = window.history.length
    renderScreen(<SearchScreen />, '/search')
    const input = await screen.findByLabelText('Search dForge')
    fireEvent.change(input, { target: { value: '  consensus ' } })
    // Typing alone does not search.
    expect(param('q')).toBeNull()
    expect(api.fetchMock).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText(EMPTY)).toBeTruthy()
    expect(screen.queryByText(/milestone/)).toBeNull()
    expect(param('q')).toBe('consensus')
    expect(window.history.length).toBe(historyLength)
    expect(paramsOf(api.sent('GET', '/api/v1/repos/search')[0]?.url)).toEqual({ q: 'consensus', sort: 'updated', order: 'desc', page: '1', limit: '20' })
  })

  it('lists the repositories found, linking to each', async () => {
    stubApi({
      'GET /api/v1/repos/search': {
        ok: true,
        data: [repoFixture(), repoFixture({ id: 9, name: 'notes', full_name: 'ada/notes', description: '', private: true })],
      },
    })
    renderScreen(<SearchScreen />, '/search?q=ada')
    const results = await screen.findByRole('list', { name: 'Search results' })
    expect(within(results).getByRole('link', { name: 'ada/engine' }).getAttribute('href')).toBe('/ada/engine')
    expect(within(results).getByText('An analytical engine')).toBeTruthy()
    const notes = within(results).getByRole('link', { name: 'ada/notes' }).closest('li') as HTMLElement
    expect(within(notes).getByText('Private')).toBeTruthy()
    expect(screen.queryByText(EMPTY)).toBeNull()
  })

  it('finds issues and pull requests across repositories, open and closed, linking to each page', async () => {
    const api = stubApi({ 'GET /api/v1/repos/issues/search': [ISSUE, PULL] })
    renderScreen(<SearchScreen />, '/search?q=engine&type=issues')
    const results = await screen.findByRole('list', { name: 'Search results' })
    const rows = within(results).getAllByRole('listitem')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByRole('link', { name: 'Engine overheats' }).getAttribute('href')).toBe('/ada/engine/issues/4')
    expect(within(rows[0]).getByText(/ada\/engine #4/)).toBeTruthy()
    expect(within(rows[0]).getByText('Open')).toBeTruthy()
    expect(within(rows[1]).getByRole('link', { name: 'Faster looms' }).getAttribute('href')).toBe('/grace/loom/pulls/7')
    expect(within(rows[1]).getByText(/grace\/loom #7 · Pull request/)).toBeTruthy()
    expect(within(rows[1]).getByText('Merged')).toBeTruthy()
    expect(paramsOf(api.sent('GET', '/api/v1/repos/issues/search')[0]?.url)).toEqual({ q: 'engine', state: 'all', page: '1', limit: '20' })
  })

  it('says so when no issue matches', async () => {
    stubApi({ 'GET /api/v1/repos/issues/search': [] })
    renderScreen(<SearchScreen />, '/search?q=ledger&type=issues')
    expect(await screen.findByText(EMPTY)).toBeTruthy()
    expect(screen.getByRole('tab', { name: 'Issues' }).getAttribute('aria-selected')).toBe('true')
  })

  it('finds users by part of their name (a leading @ dropped) and links to their pages', async () => {
    const api = stubApi({ 'GET /api/v1/users/search': { ok: true, data: [GRACE, { ...GRACE, id: 3, login: 'gracie', full_name: '', description: '', wallet_address: '0x1' }] } })
    renderScreen(<SearchScreen />, '/search?q=%40gra&type=users')
    const results = await screen.findByRole('list', { name: 'Search results' })
    expect(within(results).getByRole('link', { name: 'Grace Hopper' }).getAttribute('href')).toBe('/user/grace')
    expect(within(results).getByText('@grace')).toBeTruthy()
    expect(within(results).getByText('Compilers, mostly.')).toBeTruthy()
    // No display name: the login is the link.
    expect(within(results).getByRole('link', { name: 'gracie' }).getAttribute('href')).toBe('/user/gracie')
    expect(screen.queryByText(/exact username/)).toBeNull()
    expect(paramsOf(api.sent('GET', '/api/v1/users/search')[0]?.url)).toEqual({ q: 'gra', page: '1', limit: '20' })
  })

  it('shows the empty state when no user matches', async () => {
    stubApi({ 'GET /api/v1/users/search': { ok: true, data: [] } })
    renderScreen(<SearchScreen />, '/search?q=nobody&type=users')
    expect(await screen.findByText(EMPTY)).toBeTruthy()
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull()
  })

  it('pages through the results and keeps the page in the URL', async () => {
    const api = stubApi({
      'GET /api/v1/users/search': (_body: unknown, url: URL) =>
        page({ ok: true, data: [{ ...GRACE, login: `grace${url.searchParams.get('page')}`, full_name: '' }] }, 45),
    })
    renderScreen(<SearchScreen />, '/search?q=grace&type=users')
    expect(await screen.findByRole('link', { name: 'grace1' })).toBeTruthy()
    expect(screen.getByText('Page 1 of 3')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByRole('link', { name: 'grace2' })).toBeTruthy()
    expect(param('page')).toBe('2')
    expect(paramsOf(api.sent('GET', '/api/v1/users/search').at(-1)?.url).page).toBe('2')
  })

  it('searches the chosen tab, from its first page, for the same query', async () => {
    const api = stubApi({ 'GET /api/v1/repos/search': { ok: true, data: [] }, 'GET /api/v1/users/search': { ok: true, data: [GRACE] } })
    renderScreen(<SearchScreen />, '/search?q=grace&page=2')
    expect(await screen.findByText('Page 2')).toBeTruthy()
    expect(paramsOf(api.sent('GET', '/api/v1/repos/search')[0]?.url).page).toBe('2')
    expect(api.sent('GET', '/api/v1/users/search')).toHaveLength(0)
    fireEvent.click(screen.getByRole('tab', { name: 'Users' }))
    expect(await screen.findByRole('link', { name: 'Grace Hopper' })).toBeTruthy()
    expect(param('page')).toBeNull()
    expect(paramsOf(api.sent('GET', '/api/v1/users/search')[0]?.url)).toEqual({ q: 'grace', page: '1', limit: '20' })
  })

  it('says so when the search fails, rather than claiming no result', async () => {
    stubApi({ 'GET /api/v1/users/search': () => json({ message: 'boom', code: 'internal' }, 500) })
    renderScreen(<SearchScreen />, '/search?q=grace&type=users')
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy()
    expect(screen.queryByText(EMPTY)).toBeNull()
  })

  it('filters by type and writes the type to the URL', async () => {
    renderScreen(<SearchScreen />, '/search')
    fireEvent.click(await screen.findByRole('tab', { name: 'Issues' }))
    expect(param('type')).toBe('issues')
    expect(screen.getByText(/press Search to find issues/)).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Users' }))
    expect(screen.getByText(/username or full name/)).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Repositories' }))
    expect(param('type')).toBeNull()
  })

  it('does not search for blank input', async () => {
    const api = stubApi({})
    renderScreen(<SearchScreen />, '/search')
    fireEvent.change(await screen.findByLabelText('Search dForge'), { target: { value: '   ' } })
    fireEvent.submit(screen.getByRole('search'))
    expect(screen.queryByText(EMPTY)).toBeNull()
    expect(param('q')).toBeNull()
    expect(api.fetchMock).not.toHaveBeenCalled()
  })
})
