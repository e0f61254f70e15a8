import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { callsTo, fakeChain, type FakeChain, stubChain, TREASURY } from '@/features/wallet/testing'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import AnalyticsScreen from './AnalyticsScreen'

preloadNamespaces('analytics')

const VITALS = { windowDays: 28, metrics: [{ metric: 'LCP', page: '/', p75: 1234, count: 40, rating: 'good' }] }

/** The chain API over chain, plus the web-vitals summary the page also reads. */
function stubNode(chain: FakeChain) {
  const fetchMock = stubChain(chain)
  const chainAnswer = fetchMock.getMockImplementation()!
  fetchMock.mockImplementation(async (input, init) =>
    String(input) === '/api/v1/analytics/web-vitals' ? json(VITALS) : chainAnswer(input, init),
  )
  return fetchMock
}

/** Waits for a figure to read text: amounts say "Loading…" until the chain params are in. */
const shows = (key: string, text: string, timeout?: number) =>
  waitFor(() => expect(screen.getByTestId(`chain-${key}`).textContent).toBe(text), { timeout })

describe('AnalyticsScreen', () => {
  it('shows the chain-wide figures from the chain status', async () => {
    const fetchMock = stubNode(fakeChain())
    renderScreen(<AnalyticsScreen />, '/analytics')
    const section = await screen.findByRole('region', { name: 'Chain figures' })
    await shows('supply', '1,000,000 DFG')
    const figures = Object.fromEntries(
      within(section)
        .getAllByRole('definition')
        .map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]),
    )
    expect(figures).toEqual({
      Height: '7',
      Supply: '1,000,000 DFG',
      Staked: '250,000 DFG',
      Unbonding: '5 DFG',
      'Treasury balance': '400,000 DFG',
      Accounts: '3',
      Validators: '1',
    })
    expect(within(section).getByText(/^Latest block at /)).toBeTruthy()
    expect(within(section).getByRole('link', { name: 'Treasury' }).getAttribute('href')).toBe('/treasury')
    expect(within(section).getByRole('link', { name: 'Explorer' }).getAttribute('href')).toBe('/explorer')
    expect(within(section).getByRole('link', { name: 'Validators' }).getAttribute('href')).toBe('/validators')
    expect(callsTo(fetchMock, '/api/v1/chain/status').length).toBeGreaterThanOrEqual(1)
    // The web vitals still show beside them.
    expect(await screen.findByText('Good')).toBeTruthy()
  })

  it('says rewards per epoch and proposals come with the governance milestone, not the chain milestone', async () => {
    stubNode(fakeChain())
    renderScreen(<AnalyticsScreen />, '/analytics')
    const section = await screen.findByRole('region', { name: 'Chain figures' })
    expect(within(section).getByText('Rewards per epoch and governance proposals arrive with the governance milestone.')).toBeTruthy()
    expect(screen.queryByText(/chain milestone/)).toBeNull()
  })

  it('polls the status and follows new blocks', async () => {
    const chain = fakeChain()
    const fetchMock = stubNode(chain)
    renderScreen(<AnalyticsScreen />, '/analytics')
    await shows('height', '7')
    chain.status = { ...chain.status, height: 9, supply: 1_000_100_000_000, accounts: 4, treasury: { address: TREASURY, balance: 400_500_000_000 } }
    // The status is polled every 2 s.
    await shows('height', '9', 4000)
    expect(screen.getByTestId('chain-supply').textContent).toBe('1,000,100 DFG')
    expect(screen.getByTestId('chain-treasury').textContent).toBe('400,500 DFG')
    expect(screen.getByTestId('chain-accounts').textContent).toBe('4')
    expect(callsTo(fetchMock, '/api/v1/chain/status').length).toBeGreaterThanOrEqual(2)
    expect(callsTo(fetchMock, '/api/v1/chain/params')).toHaveLength(1)
  }, 10_000)

  it('offers a retry when the chain status cannot be read', async () => {
    const fetchMock = stubNode(fakeChain())
    const chainAnswer = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input, init) =>
      String(input) === '/api/v1/chain/status' ? json({ message: 'boom', code: 'internal' }, 500) : chainAnswer(input, init),
    )
    renderScreen(<AnalyticsScreen />, '/analytics')
    const section = await screen.findByRole('region', { name: 'Chain figures' })
    expect(await within(section).findByRole('button', { name: 'Retry' })).toBeTruthy()
    expect(within(section).queryByTestId('chain-height')).toBeNull()
  })
})
