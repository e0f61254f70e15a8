import { fireEvent, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import { filterRepositories, type Repository, sortRepositories } from './api'
import ExploreScreen from './ExploreScreen'
import RepositoryScreen from './RepositoryScreen'

preloadNamespaces('repositories', 'issues')

let fetchMock: ReturnType<typeof stubFetch>
beforeEach(() => {
  fetchMock = stubFetch()
})

describe('ExploreScreen', () => {
  it('shows the empty state and asks no API that does not exist yet', async () => {
    renderScreen(<ExploreScreen />, '/explore')
    expect(await screen.findByRole('heading', { level: 1, name: 'Explore' })).toBeTruthy()
    expect(screen.getByText('No repositories yet. Create your first repository!')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('keeps the search query in the URL as the user types', async () => {
    renderScreen(<ExploreScreen />, '/explore')
    const input = await screen.findByLabelText('Search repositories')
    fireEvent.change(input, { target: { value: 'ledger' } })
    expect(new URLSearchParams(window.location.search).get('q')).toBe('ledger')
    // Nothing exists yet, so the honest message stays the same.
    expect(screen.getByText('No repositories yet. Create your first repository!')).toBeTruthy()
    fireEvent.change(input, { target: { value: '' } })
    expect(window.location.search).toBe('')
  })

  it('reads the query and sort from the URL and writes the sort back', async () => {
    renderScreen(<ExploreScreen />, '/explore?q=chain&sort=stars')
    const input = (await screen.findByLabelText('Search repositories')) as HTMLInputElement
    expect(input.value).toBe('chain')
    const sort = screen.getByLabelText('Sort by') as HTMLSelectElement
    expect(sort.value).toBe('stars')
    fireEvent.change(sort, { target: { value: 'name' } })
    expect(new URLSearchParams(window.location.search).get('sort')).toBe('name')
    expect(new URLSearchParams(window.location.search).get('q')).toBe('chain')
  })

  it('falls back to the default sort for an unknown ?sort=', async () => {
    renderScreen(<ExploreScreen />, '/explore?sort=bogus')
    expect(((await screen.findByLabelText('Sort by')) as HTMLSelectElement).value).toBe('updated')
  })

  it('renders New repository disabled, described by why', async () => {
    renderScreen(<ExploreScreen />, '/explore')
    const button = (await screen.findByRole('button', { name: 'New repository' })) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    const note = document.getElementById(button.getAttribute('aria-describedby') ?? '')
    expect(note?.textContent).toBe('Creating repositories becomes available when the forge milestone lands.')
  })
})

describe('repository search and sort', () => {
  // Test fixtures only: the screen never shows repositories that the node does not have.
  const repo = (id: number, full_name: string, description: string, stars_count: number, updated_at: string): Repository => ({
    id,
    full_name,
    description,
    stars_count,
    forks_count: 0,
    updated_at,
  })
  const repos = [repo(1, 'a/alpha', 'Git hosting', 3, '2025-01-02'), repo(2, 'b/beta', 'A ledger', 9, '2025-01-01')]

  it('matches name or description, ignoring case and surrounding spaces', () => {
    expect(filterRepositories(repos, ' LEDGER ').map((r) => r.id)).toEqual([2])
    expect(filterRepositories(repos, 'alp').map((r) => r.id)).toEqual([1])
    expect(filterRepositories(repos, '').map((r) => r.id)).toEqual([1, 2])
  })

  it('sorts by stars, name and update time without changing its input', () => {
    expect(sortRepositories(repos, 'stars').map((r) => r.id)).toEqual([2, 1])
    expect(sortRepositories(repos, 'updated').map((r) => r.id)).toEqual([1, 2])
    expect(sortRepositories([...repos].reverse(), 'name').map((r) => r.id)).toEqual([1, 2])
    expect(repos.map((r) => r.id)).toEqual([1, 2])
  })
})

describe('RepositoryScreen', () => {
  it('says the repository is not found, names the id and links back to Explore', async () => {
    renderScreen(<RepositoryScreen />, '/repository/dforge')
    expect(await screen.findByRole('heading', { level: 1, name: 'Repository not found' })).toBeTruthy()
    expect(screen.getByText(/There is no repository “dforge” on this node/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to Explore' }).getAttribute('href')).toBe('/explore')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
