import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import { NoDescription, NoIssues } from './EmptyStates'
import IssueScreen from './IssueScreen'

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
  await initI18n().loadNamespaces(['issues'])
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

describe('IssueScreen', () => {
  it('says which issue is not found, without asking the server', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderAt('/issue/42', IssueScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Issue #42 not found' })).toBeTruthy()
    expect(document.title).toBe('Issue #42 not found · dForge')
    expect(screen.getByRole('link', { name: 'Explore repositories' }).getAttribute('href')).toBe('/explore')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('issue empty states', () => {
  it('reads "No description provided" for a missing description', async () => {
    renderAt('/', NoDescription)
    expect(await screen.findByText('No description provided')).toBeTruthy()
  })

  it('reads "No issues found" for an empty issue list', async () => {
    renderAt('/', NoIssues)
    expect((await screen.findByRole('status')).textContent).toBe('No issues found')
  })
})
