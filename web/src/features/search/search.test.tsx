import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, stubFetch, WALLET } from '@/test/render'
import SearchScreen, { usernameOf } from './SearchScreen'

preloadNamespaces('search')

const EMPTY = 'No results found. Try a different search.'
const param = (name: string) => new URLSearchParams(window.location.search).get(name)

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

describe('SearchScreen', () => {
  it('prompts for a query before one is submitted', async () => {
    renderScreen(<SearchScreen />, '/search')
    expect(await screen.findByText(/press Search to find repositories/)).toBeTruthy()
    expect(screen.queryByText(EMPTY)).toBeNull()
  })

  it('shows the empty state after a search and keeps the query in the URL', async () => {
    const fetchMock = stubFetch()
    const historyLength = window.history.length
    renderScreen(<SearchScreen />, '/search')
    const input = await screen.findByLabelText('Search dForge')
    fireEvent.change(input, { target: { value: '  consensus ' } })
    // Typing alone does not search.
    expect(screen.queryByText(EMPTY)).toBeNull()
    expect(param('q')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(screen.getByText(EMPTY)).toBeTruthy()
    expect(screen.getByText(/Repositories and issues arrive with the forge milestone/)).toBeTruthy()
    expect(screen.queryByText(/chain milestone/)).toBeNull()
    expect(param('q')).toBe('consensus')
    expect(window.history.length).toBe(historyLength)
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('treats a query in the URL as submitted', async () => {
    stubFetch()
    renderScreen(<SearchScreen />, '/search?q=ledger&type=users')
    expect(((await screen.findByLabelText('Search dForge')) as HTMLInputElement).value).toBe('ledger')
    expect(await screen.findByText(EMPTY)).toBeTruthy()
    expect(screen.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true')
  })

  it('finds a user by exact username and links to their page', async () => {
    const fetchMock = stubFetch({ '/api/v1/users/grace': GRACE })
    renderScreen(<SearchScreen />, '/search?q=grace&type=users')
    const results = await screen.findByRole('list', { name: 'Search results' })
    const link = within(results).getByRole('link', { name: 'Grace Hopper' })
    expect(link.getAttribute('href')).toBe('/user/grace')
    expect(within(results).getByText('@grace')).toBeTruthy()
    expect(within(results).getByText('Compilers, mostly.')).toBeTruthy()
    expect(screen.queryByText(EMPTY)).toBeNull()
    expect(screen.getByText('Users are found by their exact username.')).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/users/grace', expect.anything())
  })

  it('shows the login when the user has no display name, and drops a leading @', async () => {
    const fetchMock = stubFetch({ '/api/v1/users/ada': { ...GRACE, login: 'ada', full_name: '', description: '' } })
    renderScreen(<SearchScreen />, '/search?q=%40ada&type=users')
    expect((await screen.findByRole('link', { name: 'ada' })).getAttribute('href')).toBe('/user/ada')
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/users/ada', expect.anything())
  })

  it('searches users when the Users tab is chosen after a search', async () => {
    const fetchMock = stubFetch({ '/api/v1/users/grace': GRACE })
    renderScreen(<SearchScreen />, '/search?q=grace')
    expect(await screen.findByText(EMPTY)).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('tab', { name: 'Users' }))
    expect(await screen.findByRole('link', { name: 'Grace Hopper' })).toBeTruthy()
  })

  it('finds nobody for an unknown username (404)', async () => {
    const fetchMock = stubFetch()
    renderScreen(<SearchScreen />, '/search?q=nobody&type=users')
    expect(await screen.findByText(EMPTY)).toBeTruthy()
    expect(screen.getByText('Users are found by their exact username.')).toBeTruthy()
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull()
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/users/nobody', expect.anything())
  })

  it('does not ask the server about a query that cannot be a username', async () => {
    const fetchMock = stubFetch()
    renderScreen(<SearchScreen />, '/search?q=grace%20hopper&type=users')
    expect(await screen.findByText(EMPTY)).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('says so when the user lookup fails, rather than claiming no result', async () => {
    stubFetch(async () => json({ message: 'boom', code: 'internal' }, 500))
    renderScreen(<SearchScreen />, '/search?q=grace&type=users')
    expect(await screen.findByRole('button', { name: 'Retry' }, { timeout: 4000 })).toBeTruthy()
    expect(screen.queryByText(EMPTY)).toBeNull()
  }, 10_000)

  it('filters by type and writes the type to the URL', async () => {
    renderScreen(<SearchScreen />, '/search')
    fireEvent.click(await screen.findByRole('tab', { name: 'Issues' }))
    expect(param('type')).toBe('issues')
    expect(screen.getByText(/press Search to find issues/)).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Repositories' }))
    expect(param('type')).toBeNull()
  })

  it('does not search for blank input', async () => {
    renderScreen(<SearchScreen />, '/search')
    fireEvent.change(await screen.findByLabelText('Search dForge'), { target: { value: '   ' } })
    fireEvent.submit(screen.getByRole('search'))
    expect(screen.queryByText(EMPTY)).toBeNull()
    expect(param('q')).toBeNull()
  })
})

describe('usernameOf', () => {
  it.each([
    ['ada', 'ada'],
    ['@Grace.Hopper_1-x', 'Grace.Hopper_1-x'],
    ['a'.repeat(39), 'a'.repeat(39)],
    ['a'.repeat(40), null],
    ['grace hopper', null],
    ['@', null],
    ['ü', null],
  ])('%j is %j', (query, want) => {
    expect(usernameOf(query)).toBe(want)
  })
})
