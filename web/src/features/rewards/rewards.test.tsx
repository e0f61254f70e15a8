import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { callsTo, fakeChain, PARAMS, stubChain } from '@/features/wallet/testing'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import LeaderboardScreen from './LeaderboardScreen'
import RewardsScreen from './RewardsScreen'

preloadNamespaces('rewards')

/** Waits for an amount to read text: it says "Loading…" until the chain params (the token's decimals) are in. */
const shows = (testId: string, text: string, timeout?: number) =>
  waitFor(() => expect(screen.getByTestId(testId).textContent).toBe(text), { timeout })

describe('RewardsScreen', () => {
  it('asks a signed-out visitor to sign in and still explains what earns rewards', async () => {
    const fetchMock = stubFetch()
    renderScreen(<RewardsScreen />, '/rewards')
    expect(await screen.findByText('Sign in with your wallet to see your balance and rewards.')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Balance' })).toBeNull()
    expect(screen.getByRole('heading', { level: 2, name: 'What earns rewards' })).toBeTruthy()
    expect(screen.getByText(/a merged pull request, to its author/)).toBeTruthy()
    expect(screen.getByText(/Caps apply per account, per repository and per epoch/)).toBeTruthy()
    expect(screen.getByText('Rewards start when the governance milestone lands.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("shows the signed-in user's balance, staked and unbonding from the chain, and where to move tokens", async () => {
    const fetchMock = stubChain(fakeChain())
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    const balance = await screen.findByRole('region', { name: 'Balance' })
    await shows('rewards-balance', '1,234.5 DFG')
    expect(within(balance).getByTestId('rewards-staked').textContent).toBe('2 DFG')
    expect(within(balance).getByTestId('rewards-unbonding').textContent).toBe('0 DFG')
    expect(within(balance).getByText(WALLET)).toBeTruthy()
    expect(callsTo(fetchMock, `/api/v1/accounts/${WALLET}`)).toHaveLength(1)

    const wallet = within(balance).getByRole('link', { name: 'Open your wallet' })
    expect(wallet.getAttribute('href')).toBe('/wallet')
    expect(document.getElementById(wallet.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Send, receive, tip and stake on your wallet page; each is signed in your wallet.',
    )
    expect(screen.getByRole('link', { name: 'See your transactions' }).getAttribute('href')).toBe('/wallet')
    // Moving tokens happens on the wallet page: nothing here is a disabled stand-in.
    expect(screen.queryByRole('button')).toBeNull()
    expect(screen.queryByText(/chain milestone/)).toBeNull()
  })

  it('keeps earned rewards empty and says they come with the governance milestone', async () => {
    stubChain(fakeChain())
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    const earned = await screen.findByRole('region', { name: 'Earned rewards' })
    expect(within(earned).getByText('No rewards earned yet')).toBeTruthy()
    expect(within(earned).getByText('Rewards, their caps and your reputation multiplier arrive with the governance milestone.')).toBeTruthy()
    expect(within(earned).queryByText(/\d/)).toBeNull()
  })

  it('shows an account the chain has never seen as zero balances', async () => {
    stubChain(fakeChain({ accounts: {} }))
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    await shows('rewards-balance', '0 DFG')
    expect(screen.getByTestId('rewards-staked').textContent).toBe('0 DFG')
  })

  it('says so when the account cannot be loaded, and offers a retry', async () => {
    stubFetch(async (input) =>
      String(input).startsWith('/api/v1/accounts/') ? json({ message: 'boom', code: 'internal' }, 500) : json(String(input).endsWith('/params') ? PARAMS : fakeChain().status),
    )
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    const balance = await screen.findByRole('region', { name: 'Balance' })
    // The account is retried once (after about a second) before the error shows.
    expect(await within(balance).findByRole('alert', undefined, { timeout: 4000 })).toBeTruthy()
    expect(within(balance).getByRole('button', { name: 'Retry' })).toBeTruthy()
    expect(within(balance).queryByTestId('rewards-balance')).toBeNull()
  }, 10_000)

  it('follows new blocks: a changed height refreshes the balance', async () => {
    const chain = fakeChain()
    stubChain(chain)
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    await shows('rewards-balance', '1,234.5 DFG')
    const key = WALLET.toLowerCase()
    chain.accounts = { [key]: { ...chain.accounts[key], balance: 1_000_000, staked: 3_000_000, unbonding: 500_000 } }
    chain.status = { ...chain.status, height: 8 }
    await shows('rewards-balance', '1 DFG', 4000)
    expect(screen.getByTestId('rewards-staked').textContent).toBe('3 DFG')
    expect(screen.getByTestId('rewards-unbonding').textContent).toBe('0.5 DFG')
  }, 10_000)

  it('asks a signed-in user without a wallet address to connect one, without asking the chain', async () => {
    const fetchMock = stubFetch()
    signIn()
    renderScreen(<RewardsScreen />, '/rewards')
    expect(await screen.findByText('No wallet connected.')).toBeTruthy()
    expect(screen.queryByTestId('rewards-balance')).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('LeaderboardScreen', () => {
  it('shows the table header and the empty state', async () => {
    renderScreen(<LeaderboardScreen />, '/leaderboard')
    expect(await screen.findByText('No contributions ranked yet')).toBeTruthy()
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Rank', 'Contributor', 'Score', 'Commits', 'PRs', 'Issues', 'Reviews'])
    expect(screen.getByRole('table', { name: 'Top contributors this week' })).toBeTruthy()
  })

  it('switches between periods', async () => {
    renderScreen(<LeaderboardScreen />, '/leaderboard')
    fireEvent.click(await screen.findByRole('tab', { name: 'All time' }))
    expect(screen.getByRole('tab', { name: 'All time' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('table', { name: 'Top contributors of all time' })).toBeTruthy()
    fireEvent.keyDown(screen.getByRole('tab', { name: 'All time' }), { key: 'ArrowLeft' })
    expect(screen.getByRole('table', { name: 'Top contributors this month' })).toBeTruthy()
  })
})
