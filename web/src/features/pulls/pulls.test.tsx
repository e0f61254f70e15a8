import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import { NoPullRequests } from './EmptyStates'
import PullRequestScreen from './PullRequestScreen'

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
  await initI18n().loadNamespaces(['pulls'])
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

describe('PullRequestScreen', () => {
  it('says the pull request is not found and names its number', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderAt('/pr/7', PullRequestScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Pull request not found' })).toBeTruthy()
    expect(screen.getByText(/There is no pull request #7 on this node/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Search dForge' }).getAttribute('href')).toBe('/search')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('reads "No pull requests found" for an empty pull request list', async () => {
    renderAt('/', NoPullRequests)
    expect((await screen.findByRole('status')).textContent).toBe('No pull requests found')
  })
})
