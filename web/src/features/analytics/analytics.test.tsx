import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { callsTo, fakeChain, type FakeChain, stubChain, TREASURY } from '@/test/chain'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import AnalyticsScreen from './AnalyticsScreen'

preloadNamespaces('analytics')

const VITALS = { windowDays: 28, metrics: [{ metric: 'LCP', page: '/', p75: 1234, count: 40, rating: 'good' }] }

const GOVERNANCE = {
  supply: 1_000_000_000_000,
  staked: 250_000_000_000,
  treasury: 400_000_000_000,
  rewards_per_epoch: [
    { epoch: 3, minted: 500_000_000 },
    { epoch: 1, minted: 1_000_000_000 },
    { epoch: 2, minted: 250_000_000 },
  ],
  proposals: { active: 2, passed: 1, rejected: 3, executed: 4, failed: 1 },
}

/** The chain API over chain, plus the web-vitals summary and the governance figures (at path) the page also reads. */
function stubNode(chain: FakeChain, governance: { path: string; body: unknown } = { path: '/api/v1/analytics/governance', body: GOVERNANCE }) {
  const fetchMock = stubChain(chain)
  const chainAnswer = fetchMock.getMockImplementation()!
  fetchMock.mockImplementation(async (input, init) =>
    String(input) === '/api/v1/analytics/web-vitals'
      ? json(VITALS)
      : String(input) === governance.path
        ? json(governance.body)
        : chainAnswer(input, init),
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

  it('shows proposals by status and the rewards minted per epoch as a bar list', async () => {
    stubNode(fakeChain())
    renderScreen(<AnalyticsScreen />, '/analytics')
    const section = await screen.findByRole('region', { name: 'Governance and rewards' })
    await waitFor(() => expect(within(section).getByTestId('proposals-executed').textContent).toBe('4'))
    const counts = Object.fromEntries(
      within(section)
        .getAllByRole('definition')
        .map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]),
    )
    expect(counts).toEqual({ Active: '2', Passed: '1', Rejected: '3', Executed: '4', Failed: '1' })
    expect(within(section).getByRole('link', { name: 'Failed' }).getAttribute('href')).toBe('/governance?status=failed')

    const table = within(section).getByRole('table', { name: 'Rewards minted per epoch' })
    await waitFor(() => expect(within(table).getByText('1,000 DFG')).toBeTruthy())
    const rows = within(table).getAllByRole('row').slice(1)
    // Oldest first: epoch, then what it minted.
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(0, 2).map((c) => c.textContent))).toEqual([
      ['1', '1,000 DFG'],
      ['2', '250 DFG'],
      ['3', '500 DFG'],
    ])
    const bar = (epoch: number) => (screen.getByTestId(`epoch-${epoch}`).querySelector('.epoch-bar') as HTMLElement).style.width
    expect([bar(1), bar(2), bar(3)]).toEqual(['100%', '25%', '50%'])
    expect(screen.queryByText(/milestone/)).toBeNull()
  })

  it('reads the figures from /api/v1/analytics/chain when the node has no /analytics/governance', async () => {
    const fetchMock = stubNode(fakeChain(), { path: '/api/v1/analytics/chain', body: { ...GOVERNANCE, rewards_per_epoch: [] } })
    renderScreen(<AnalyticsScreen />, '/analytics')
    const section = await screen.findByRole('region', { name: 'Governance and rewards' })
    expect(await within(section).findByText('No rewards minted yet')).toBeTruthy()
    expect(within(section).getByTestId('proposals-rejected').textContent).toBe('3')
    expect(callsTo(fetchMock, '/api/v1/analytics/governance')).toHaveLength(1)
    expect(callsTo(fetchMock, '/api/v1/analytics/chain')).toHaveLength(1)
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
