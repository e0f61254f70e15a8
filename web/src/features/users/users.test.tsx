import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import { useAuthStore } from '@/stores/auth'
import ProfileScreen from './ProfileScreen'
import UserScreen from './UserScreen'

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
  await initI18n().loadNamespaces(['users'])
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

describe('ProfileScreen', () => {
  it('asks a signed-out visitor to sign in with a wallet', async () => {
    renderAt('/profile', ProfileScreen)
    expect(await screen.findByText('Sign in with your wallet to see your profile.')).toBeTruthy()
    expect(screen.getByText(/Wallet sign-in \(Sign-In with Ethereum\) becomes available/)).toBeTruthy()
  })

  it('shows the signed-in user, their wallet and no invented scores', async () => {
    signIn(WALLET)
    renderAt('/profile', ProfileScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'ada' })).toBeTruthy()
    expect(screen.getByText(WALLET)).toBeTruthy()
    expect(screen.getByText('No contributions yet')).toBeTruthy()
    expect(screen.queryByText('0')).toBeNull()
    expect(screen.getByRole('link', { name: 'Edit profile in settings' }).getAttribute('href')).toBe('/settings')
  })

  it('leaves out the wallet row when no wallet is connected', async () => {
    signIn()
    renderAt('/profile', ProfileScreen)
    expect(await screen.findByText('Username')).toBeTruthy()
    expect(screen.queryByText('Wallet address')).toBeNull()
  })
})

describe('UserScreen', () => {
  it('says the user is not found and names the id', async () => {
    renderAt('/user/grace', UserScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'User not found' })).toBeTruthy()
    expect(screen.getByText(/There is no user “grace” on this node/)).toBeTruthy()
  })
})
