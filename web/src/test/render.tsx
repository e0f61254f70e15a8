/**
 * Shared setup for screen tests: render a screen as the app does, sign in,
 * and stub fetch.
 *
 * Importing this module initialises i18n before the file's tests and, after
 * each test, undoes what the helpers below change: stubbed globals (fetch),
 * the signed-in user and the address. Unmounting is setup.ts's cleanup, which
 * runs after this module's hook (after-hooks run in reverse order).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render } from '@testing-library/react'
import { type ReactElement, Suspense } from 'react'
import { afterEach, beforeAll, beforeEach, expect, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/lib/routes'
import { initI18n } from '@/i18n/i18n'
import { AUTH_STORAGE_KEY, useAuthStore } from '@/stores/auth'

beforeAll(() => {
  initI18n()
})

afterEach(() => {
  // Still mounted here: the screen re-renders signed out.
  act(() => useAuthStore.getState().logout())
  localStorage.removeItem(AUTH_STORAGE_KEY)
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

/**
 * Renders ui inside the app's providers with the address set to path (query
 * string included) and the route matched from it. Queries and mutations are
 * not retried.
 */
export function renderScreen(ui: ReactElement, path = '/') {
  window.history.replaceState(null, '', path)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <RouteContext value={matchRoute(window.location.pathname)}>
        <Suspense fallback={null}>{ui}</Suspense>
      </RouteContext>
    </QueryClientProvider>,
  )
}

/**
 * Loads i18n namespaces before the file's tests, so a slow first chunk load
 * does not race the findBy* timeouts. Call once at the top of the file.
 */
export function preloadNamespaces(...namespaces: string[]) {
  beforeAll(async () => {
    await initI18n().loadNamespaces(namespaces)
  })
}

/** A test wallet address. */
export const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7'

/** Signs in the test account "ada", with a wallet if given: the screens show whatever the auth store holds. */
export function signIn(walletAddress?: string) {
  act(() => useAuthStore.getState().login({ username: 'ada', walletAddress }, 'test-token'))
}

/** A JSON response, as the API sends it. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

type FetchHandler = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/**
 * Replaces fetch for the current test and returns the mock. Given routes, it
 * answers each listed URL with that JSON body and anything else with the API's
 * 404; given a function, that function answers every request.
 */
export function stubFetch(routes: Record<string, unknown> | FetchHandler = {}) {
  const answer: FetchHandler =
    typeof routes === 'function'
      ? routes
      : async (input) => {
          const url = String(input)
          return Object.hasOwn(routes, url) ? json(routes[url]) : json({ message: 'page not found', code: 'not_found' }, 404)
        }
  const fetchMock = vi.fn(answer)
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

/** For screens that must not call any API: stubs fetch before each test and fails a test that called it. */
export function forbidFetch() {
  let fetchMock: ReturnType<typeof stubFetch>
  beforeEach(() => {
    fetchMock = stubFetch()
  })
  afterEach(() => {
    expect(fetchMock).not.toHaveBeenCalled()
  })
}
