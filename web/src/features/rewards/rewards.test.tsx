import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { callsTo, fakeChain, type FakeChain, OTHER, PARAMS, stubChain } from '@/test/chain'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import type { Rank, Reputation, Reward } from './api'
import LeaderboardScreen from './LeaderboardScreen'
import RewardsScreen from './RewardsScreen'

preloadNamespaces('rewards', 'wallet')

function reward(over: Partial<Reward>): Reward {
  return {
    height: 7,
    time: '2026-11-20T10:00:00Z',
    account: WALLET,
    account_name: 'ada',
    kind: 'pr',
    repo: 'ada/engine',
    number: 12,
    sha: '',
    base: 100_000_000,
    multiplier_bps: 12_500,
    minted: 112_500_000,
    treasury: 12_500_000,
    withheld: 0,
    reason: '',
    ...over,
  }
}

const REPUTATION: Reputation = {
  address: WALLET,
  reputation: 250,
  multiplier_bps: 12_500,
  scores: { total: 14, commit: 9, pr: 3, issue: 1, review: 1 },
  earned: 130_000_000,
  withheld: 100_000_000,
}

interface FakeRewards {
  rewards: Reward[]
  reputation: Reputation | null
  leaderboard: Record<string, Rank[]>
}

/** The chain API plus /api/v1/rewards, the reputation and the leaderboard over fixtures. */
function stubRewards(over: Partial<FakeRewards> = {}, chain: FakeChain = fakeChain()) {
  const fake: FakeRewards = { rewards: [], reputation: REPUTATION, leaderboard: {}, ...over }
  const fetchMock = stubChain(chain)
  const chainAnswer = fetchMock.getMockImplementation()!
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://node.test')
    if (url.pathname === '/api/v1/rewards') {
      const account = url.searchParams.get('account')?.toLowerCase()
      const items = fake.rewards.filter((r) => !account || r.account.toLowerCase() === account)
      const res = json(items)
      res.headers.set('X-Total-Count', String(items.length))
      return res
    }
    if (url.pathname.endsWith('/reputation')) return fake.reputation ? json(fake.reputation) : json({ message: 'not found', code: 'not_found' }, 404)
    if (url.pathname === '/api/v1/leaderboard') return json(fake.leaderboard[url.searchParams.get('period') ?? ''] ?? [])
    return chainAnswer(input, init)
  })
  return fetchMock
}

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
    expect(screen.queryByText(/milestone/)).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("shows the signed-in user's balance, staked and unbonding from the chain, and where to move tokens", async () => {
    const fetchMock = stubRewards()
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

  it('lists the earned rewards with the contribution each came from, and marks a withheld one with its reason', async () => {
    const fetchMock = stubRewards({
      rewards: [
        reward({ kind: 'pr', repo: 'ada/engine', number: 12 }),
        reward({ kind: 'commit', repo: 'ada/engine', number: 0, sha: '0123456789abcdef0123', base: 5_000_000, minted: 5_625_000, height: 6 }),
        reward({ kind: 'review', repo: 'grace/cobol', number: 3, minted: 0, treasury: 0, withheld: 100_000_000, reason: 'cap_account', height: 5 }),
        reward({ kind: 'issue_reporter', repo: 'ada/engine', number: 4, minted: 5_000_000, withheld: 6_250_000, reason: 'cap_repo', height: 4 }),
        reward({ account: OTHER, kind: 'pr', repo: 'x/y', number: 1 }),
      ],
    })
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    const earned = await screen.findByRole('region', { name: 'Earned rewards' })
    const table = await within(earned).findByRole('table', { name: 'Earned rewards' })
    expect(callsTo(fetchMock, '/api/v1/rewards').map((u) => u.searchParams.get('account'))).toEqual([WALLET])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(4)
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Contribution', 'Block', 'Base', 'Multiplier', 'You got', 'Withheld'])

    expect(within(rows[0]).getByText('Pull request')).toBeTruthy()
    expect(within(rows[0]).getByRole('link', { name: 'ada/engine#12' }).getAttribute('href')).toBe('/ada/engine/pulls/12')
    await waitFor(() => expect(within(rows[0]).getByText('112.5 DFG')).toBeTruthy())
    expect(within(rows[0]).getByText('1.25×')).toBeTruthy()
    expect(within(rows[0]).getByText('—')).toBeTruthy()

    expect(within(rows[1]).getByRole('link', { name: 'ada/engine@0123456' }).getAttribute('href')).toBe('/ada/engine/commit/0123456789abcdef0123')

    expect(within(rows[2]).getByText('Review')).toBeTruthy()
    expect(within(rows[2]).getByRole('link', { name: 'grace/cobol#3' }).getAttribute('href')).toBe('/grace/cobol/pulls/3')
    expect(within(rows[2]).getByText('Withheld')).toBeTruthy()
    expect(within(rows[2]).getByText('your cap for the epoch was reached')).toBeTruthy()
    expect(within(rows[2]).getByText('0 DFG')).toBeTruthy()

    expect(within(rows[3]).getByRole('link', { name: 'ada/engine#4' }).getAttribute('href')).toBe('/ada/engine/issues/4')
    expect(within(rows[3]).getByText('Partly withheld')).toBeTruthy()
    expect(within(rows[3]).getByText("the repository's cap for the epoch was reached")).toBeTruthy()
  })

  it('shows the multiplier and reputation, and the totals earned and withheld', async () => {
    stubRewards()
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    const section = await screen.findByRole('region', { name: 'Reputation' })
    await waitFor(() => expect(within(section).getByTestId('rewards-earned').textContent).toBe('130 DFG'))
    expect(within(section).getByTestId('rewards-multiplier').textContent).toBe('1.25×')
    expect(within(section).getByTestId('rewards-reputation').textContent).toBe('250')
    expect(within(section).getByTestId('rewards-withheld').textContent).toBe('100 DFG')
  })

  it('shows the empty state when nothing was earned, and a 1.0× multiplier for an account without reputation', async () => {
    stubRewards({ rewards: [], reputation: null })
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    const earned = await screen.findByRole('region', { name: 'Earned rewards' })
    expect(await within(earned).findByText('No rewards earned yet')).toBeTruthy()
    expect(await screen.findByTestId('rewards-multiplier')).toBeTruthy()
    expect(screen.getByTestId('rewards-multiplier').textContent).toBe('1.0×')
  })

  it('shows an account the chain has never seen as zero balances', async () => {
    stubRewards({}, fakeChain({ accounts: {} }))
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    await shows('rewards-balance', '0 DFG')
    expect(screen.getByTestId('rewards-staked').textContent).toBe('0 DFG')
  })

  it('says so when the account cannot be loaded, and offers a retry', async () => {
    stubFetch(async (input) => {
      const url = String(input)
      if (url.startsWith('/api/v1/accounts/')) return json({ message: 'boom', code: 'internal' }, 500)
      if (url.startsWith('/api/v1/rewards')) return json([])
      return json(url.endsWith('/params') ? PARAMS : fakeChain().status)
    })
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
    stubRewards({}, chain)
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
  const RANKS: Rank[] = [
    { rank: 1, address: WALLET, name: 'ada', earned: 1_250_000_000, contributions: 14, reputation: 250 },
    { rank: 2, address: OTHER, name: '', earned: 20_000_000, contributions: 1, reputation: 4 },
  ]

  it('ranks contributors of the week with what they earned', async () => {
    const fetchMock = stubRewards({ leaderboard: { week: RANKS } })
    renderScreen(<LeaderboardScreen />, '/leaderboard')
    const table = await screen.findByRole('table', { name: 'Top contributors this week' })
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Rank', 'Contributor', 'Earned', 'Contributions', 'Reputation'])
    const rows = within(table).getAllByRole('row').slice(1)
    await waitFor(() => expect(rows[0].textContent).toBe('1ada1,250 DFG14250'))
    expect(within(rows[0]).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user/ada')
    expect(within(rows[1]).getByRole('link', { name: '0xfB69…d359' })).toBeTruthy()
    expect(callsTo(fetchMock, '/api/v1/leaderboard').map((u) => u.searchParams.get('period'))).toEqual(['week'])
  })

  it('shows the empty state when no one is ranked', async () => {
    stubRewards()
    renderScreen(<LeaderboardScreen />, '/leaderboard')
    expect(await screen.findByText('No contributions ranked yet')).toBeTruthy()
    expect(screen.getByRole('table', { name: 'Top contributors this week' })).toBeTruthy()
  })

  it('switches between periods by click and arrow keys, asking for each period', async () => {
    const fetchMock = stubRewards({ leaderboard: { week: [], month: RANKS.slice(1), all: RANKS } })
    renderScreen(<LeaderboardScreen />, '/leaderboard')
    expect(await screen.findByText('No contributions ranked yet')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'All time' }))
    expect(screen.getByRole('tab', { name: 'All time' }).getAttribute('aria-selected')).toBe('true')
    const all = await screen.findByRole('table', { name: 'Top contributors of all time' })
    await waitFor(() => expect(within(all).getAllByRole('row')).toHaveLength(3))
    expect(window.location.search).toBe('?period=all')
    fireEvent.keyDown(screen.getByRole('tab', { name: 'All time' }), { key: 'ArrowLeft' })
    const month = await screen.findByRole('table', { name: 'Top contributors this month' })
    await waitFor(() => expect(within(month).getAllByRole('row')).toHaveLength(2))
    expect(callsTo(fetchMock, '/api/v1/leaderboard').map((u) => u.searchParams.get('period'))).toEqual(['week', 'all', 'month'])
  })
})
