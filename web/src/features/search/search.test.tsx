import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import SearchScreen from './SearchScreen'

function renderAt(url: string, Screen: ComponentType) {
  window.history.replaceState(null, '', url)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <RouteContext value={matchRoute(new URL(url, window.location.origin).pathname)}>
        <Suspense fallback={null}>
          <Screen />
        </Suspense>
      </RouteContext>
    </QueryClientProvider>,
  )
}

// Loading the namespaces up front keeps a slow first chunk load from
// racing the findBy* timeouts below.
beforeAll(async () => {
  await initI18n().loadNamespaces(['search'])
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

const EMPTY = 'No results found. Try a different search.'
const param = (name: string) => new URLSearchParams(window.location.search).get(name)

describe('SearchScreen', () => {
  it('prompts for a query before one is submitted', async () => {
    renderAt('/search', SearchScreen)
    expect(await screen.findByText(/press Search to find repositories/)).toBeTruthy()
    expect(screen.queryByText(EMPTY)).toBeNull()
  })

  it('shows the empty state after a search and keeps the query in the URL', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    const historyLength = window.history.length
    renderAt('/search', SearchScreen)
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
    renderAt('/search?q=ledger&type=users', SearchScreen)
    expect(((await screen.findByLabelText('Search dForge')) as HTMLInputElement).value).toBe('ledger')
    expect(screen.getByText(EMPTY)).toBeTruthy()
    expect(screen.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true')
  })

  it('filters by type and writes the type to the URL', async () => {
    renderAt('/search', SearchScreen)
    fireEvent.click(await screen.findByRole('tab', { name: 'Issues' }))
    expect(param('type')).toBe('issues')
    expect(screen.getByText(/press Search to find issues/)).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Repositories' }))
    expect(param('type')).toBeNull()
  })

  it('does not search for blank input', async () => {
    renderAt('/search', SearchScreen)
    fireEvent.change(await screen.findByLabelText('Search dForge'), { target: { value: '   ' } })
    fireEvent.submit(screen.getByRole('search'))
    expect(screen.queryByText(EMPTY)).toBeNull()
    expect(param('q')).toBeNull()
  })
})
