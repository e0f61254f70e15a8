import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import { formatAmount } from './api'
import ProfileScreen from './ProfileScreen'
import UserScreen from './UserScreen'

preloadNamespaces('users')

const GRACE = {
  id: 2,
  login: 'grace',
  full_name: 'Grace Hopper',
  description: 'Compilers, mostly.',
  location: 'Arlington',
  website: 'https://example.org/grace',
  created: '2026-11-01T10:00:00Z',
  wallet_address: WALLET,
}
const PARAMS = { token: { symbol: 'DFG', decimals: 6 } }
const TIP = { hash: 'ab12', height: 42, from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', to: WALLET, amount: 2_500_000, target: 'user:grace', time: '2026-11-02T10:00:00Z' }

describe('UserScreen', () => {
  it('says the user is not found and names the id', async () => {
    stubFetch()
    renderScreen(<UserScreen />, '/user/nobody')
    expect(await screen.findByRole('heading', { level: 1, name: 'User not found' })).toBeTruthy()
    expect(screen.getByText(/There is no user “nobody” on this node/)).toBeTruthy()
  })

  it('shows the profile fields, the wallet and the tips received', async () => {
    const fetchMock = stubFetch({
      '/api/v1/users/grace': GRACE,
      '/api/v1/chain/tips?target=user%3Agrace&limit=20': [TIP],
      '/api/v1/chain/params': PARAMS,
    })
    renderScreen(<UserScreen />, '/user/grace')
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeTruthy()
    expect(screen.getByText('@grace')).toBeTruthy()
    expect(screen.getByText('Compilers, mostly.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'https://example.org/grace' }).getAttribute('rel')).toContain('nofollow')
    expect(await screen.findByText('2.5 DFG')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'block 42' }).getAttribute('href')).toBe('/explorer?tx=ab12')
    expect(screen.getByRole('link', { name: 'Send a tip' }).getAttribute('href')).toBe(`/wallet?tip=user%3Agrace&to=${WALLET}`)
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/users/grace', expect.anything())
  })

  it('shows the contribution scores, reputation and multiplier in a Contributions card', async () => {
    const fetchMock = stubFetch({
      '/api/v1/users/grace': GRACE,
      '/api/v1/chain/tips?target=user%3Agrace&limit=20': [],
      '/api/v1/chain/params': PARAMS,
      [`/api/v1/accounts/${WALLET}/reputation`]: {
        address: WALLET,
        reputation: 1234,
        multiplier_bps: 11_234,
        scores: { total: 27, commit: 15, pr: 6, issue: 4, review: 2 },
        earned: 812_500_000,
        withheld: 0,
      },
    })
    renderScreen(<UserScreen />, '/user/grace')
    const card = await screen.findByRole('region', { name: 'Contributions' })
    // Amounts read "Loading…" until the chain params (the token's decimals) are in.
    await waitFor(() => expect(within(card).getByTestId('score-earned').textContent).toBe('812.5 DFG'))
    const scores = Object.fromEntries(
      within(card)
        .getAllByRole('definition')
        .map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]),
    )
    expect(scores).toEqual({
      Total: '27',
      Commits: '15',
      'Pull requests': '6',
      Issues: '4',
      Reviews: '2',
      Reputation: '1,234',
      Multiplier: '1.1234×',
      'Rewards earned': '812.5 DFG',
    })
    expect(fetchMock).toHaveBeenCalledWith(`/api/v1/accounts/${WALLET}/reputation`, expect.anything())
  })

  it('shows an empty Contributions card for a user the chain has not rewarded', async () => {
    stubFetch({ '/api/v1/users/grace': GRACE, '/api/v1/chain/tips?target=user%3Agrace&limit=20': [], '/api/v1/chain/params': PARAMS })
    renderScreen(<UserScreen />, '/user/grace')
    const card = await screen.findByRole('region', { name: 'Contributions' })
    expect(await within(card).findByText('No contributions yet')).toBeTruthy()
    expect(within(card).queryByTestId('score-total')).toBeNull()
  })

  it('says so when nobody has tipped yet', async () => {
    stubFetch({ '/api/v1/users/grace': GRACE, '/api/v1/chain/tips?target=user%3Agrace&limit=20': [], '/api/v1/chain/params': PARAMS })
    renderScreen(<UserScreen />, '/user/grace')
    expect(await screen.findByText('No tips yet')).toBeTruthy()
  })
})

describe('ProfileScreen', () => {
  it('asks a signed-out visitor to sign in with a wallet', async () => {
    stubFetch()
    renderScreen(<ProfileScreen />, '/profile')
    expect(await screen.findByText('Sign in with your wallet to see your profile.')).toBeTruthy()
  })

  it('shows the signed-in user as the server has them, with no invented scores', async () => {
    signIn(WALLET)
    stubFetch({ '/api/v1/users/ada': { ...GRACE, login: 'ada', full_name: '' }, '/api/v1/chain/tips?target=user%3Aada&limit=20': [], '/api/v1/chain/params': PARAMS })
    renderScreen(<ProfileScreen />, '/profile')
    expect(await screen.findByRole('heading', { level: 1, name: 'ada' })).toBeTruthy()
    expect(screen.getByText(WALLET)).toBeTruthy()
    // The same Contributions card as on the public page, once: empty until the chain rewards the user.
    expect(await screen.findByText('No contributions yet')).toBeTruthy()
    expect(screen.getAllByRole('heading', { level: 2, name: 'Contributions' })).toHaveLength(1)
    expect(screen.getByRole('link', { name: 'Edit profile in settings' }).getAttribute('href')).toBe('/settings')
    expect(screen.queryByRole('link', { name: 'Send a tip' })).toBeNull()
  })
})

describe('formatAmount', () => {
  it('formats micro-units exactly', () => {
    expect(formatAmount(1_500_000, 6)).toBe('1.5')
    expect(formatAmount(1, 6)).toBe('0.000001')
    expect(formatAmount(0, 6)).toBe('0')
    expect(formatAmount('100000000000000', 6)).toBe('100000000')
    expect(formatAmount('18446744073709551615', 6)).toBe('18446744073709.551615')
  })
})
