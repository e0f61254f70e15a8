import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import { useAuthStore } from '@/stores/auth'
import NotificationsScreen from './NotificationsScreen'

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
  await initI18n().loadNamespaces(['notifications', 'users'])
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  useAuthStore.getState().logout()
  localStorage.removeItem('auth-storage')
  window.history.replaceState(null, '', '/')
})

// A test account: the screens show whatever the auth store holds.
const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7'
const signIn = (walletAddress?: string) => useAuthStore.getState().login({ username: 'ada', walletAddress }, 'test-token')

describe('NotificationsScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderAt('/notifications', NotificationsScreen)
    expect(await screen.findByText('Sign in with your wallet to see your notifications.')).toBeTruthy()
    expect(screen.queryByRole('tablist')).toBeNull()
  })

  it('shows the empty states under the unread and all tabs', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    signIn(WALLET)
    renderAt('/notifications', NotificationsScreen)
    expect(await screen.findByText('No unread notifications')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'All' }))
    expect(screen.getByRole('tabpanel').textContent).toBe('No notifications')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
