import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import SearchScreen from './SearchScreen'

preloadNamespaces('search')

const EMPTY = 'No results found. Try a different search.'
const param = (name: string) => new URLSearchParams(window.location.search).get(name)

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
    expect(param('q')).toBe('consensus')
    expect(window.history.length).toBe(historyLength)
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('treats a query in the URL as submitted', async () => {
    renderScreen(<SearchScreen />, '/search?q=ledger&type=users')
    expect(((await screen.findByLabelText('Search dForge')) as HTMLInputElement).value).toBe('ledger')
    expect(screen.getByText(EMPTY)).toBeTruthy()
    expect(screen.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true')
  })

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
