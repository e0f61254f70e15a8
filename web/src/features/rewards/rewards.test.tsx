import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import { useAuthStore } from '@/stores/auth'
import LeaderboardScreen from './LeaderboardScreen'
import RewardsScreen from './RewardsScreen'

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
  await initI18n().loadNamespaces(['rewards', 'users'])
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

describe('RewardsScreen', () => {
  it('asks a signed-out visitor to sign in and still explains what earns rewards', async () => {
    renderAt('/rewards', RewardsScreen)
    expect(await screen.findByText('Sign in with your wallet to see your balance, rewards and transactions.')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Balance' })).toBeNull()
    expect(screen.getByRole('heading', { level: 2, name: 'What earns rewards' })).toBeTruthy()
    expect(screen.getByText(/a merged pull request, to its author/)).toBeTruthy()
    expect(screen.getByText(/Caps apply per account, per repository and per epoch/)).toBeTruthy()
  })

  it('shows a signed-in user empty sections, no invented numbers, and disabled wallet actions', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    signIn(WALLET)
    renderAt('/rewards', RewardsScreen)
    expect(await screen.findByRole('heading', { level: 2, name: 'Balance' })).toBeTruthy()
    expect(screen.getByText(WALLET)).toBeTruthy()
    expect(screen.getByText('No rewards earned yet')).toBeTruthy()
    expect(screen.getByText('No transactions yet')).toBeTruthy()
    for (const name of ['Send', 'Receive', 'Tip', 'Stake', 'Unstake']) {
      const button = screen.getByRole('button', { name }) as HTMLButtonElement
      expect(button.disabled).toBe(true)
      expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/chain milestone/)
    }
    expect(screen.queryByText(/\b0\b/)).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('LeaderboardScreen', () => {
  it('shows the table header and the empty state', async () => {
    renderAt('/leaderboard', LeaderboardScreen)
    expect(await screen.findByText('No contributions ranked yet')).toBeTruthy()
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Rank', 'Contributor', 'Score', 'Commits', 'PRs', 'Issues', 'Reviews'])
    expect(screen.getByRole('table', { name: 'Top contributors this week' })).toBeTruthy()
  })

  it('switches between periods', async () => {
    renderAt('/leaderboard', LeaderboardScreen)
    fireEvent.click(await screen.findByRole('tab', { name: 'All time' }))
    expect(screen.getByRole('tab', { name: 'All time' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('table', { name: 'Top contributors of all time' })).toBeTruthy()
    fireEvent.keyDown(screen.getByRole('tab', { name: 'All time' }), { key: 'ArrowLeft' })
    expect(screen.getByRole('table', { name: 'Top contributors this month' })).toBeTruthy()
  })
})
