import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { callsTo, fakeChain, type FakeChain, HASH, installWallet, OTHER, PARAMS, stubChain } from '@/test/chain'
import { schemaFixture } from '@/test/schemaFixture'
import { json, preloadNamespaces, renderScreen, signIn, WALLET } from '@/test/render'
import type { Bounty } from './api'
import BountiesScreen from './BountiesScreen'
import { BountyPanel } from './BountyPanel'

preloadNamespaces('bounties', 'wallet')

const BOUNTY_TYPES = {
  BountyFund: ['from:address', 'repo:uint256', 'issue:uint256', 'amount:uint256', 'expiry:uint256', 'nonce:uint256'],
  BountyRefund: ['from:address', 'repo:uint256', 'issue:uint256', 'nonce:uint256'],
}

/** The chain API with the bounty transaction types the node publishes. */
function bountyChain(over: Partial<FakeChain> = {}): FakeChain {
  const types = { ...PARAMS.types }
  for (const [kind, fields] of Object.entries(BOUNTY_TYPES)) {
    types[kind] = fields.map((f) => {
      const [name, type] = f.split(':')
      return { name, type }
    })
  }
  return fakeChain({ params: { ...PARAMS, types }, ...over })
}

function bounty(over: Partial<Bounty>): Bounty {
  return {
    repo: 'ada/engine',
    repo_id: 4,
    number: 3,
    title: 'It crashes',
    issue_state: 'open',
    status: 'open',
    total: 2_500_000,
    funder_count: 2,
    expiry: 900,
    paid_to: null,
    paid_amount: 0,
    paid_height: 0,
    language: 'Go',
    ...over,
  }
}

/** The chain API plus the bounty reads over fixtures. */
function stubBounties(list: Record<string, Bounty[]>, issue: Bounty | null, chain: FakeChain = bountyChain()) {
  const fetchMock = stubChain(chain)
  const chainAnswer = fetchMock.getMockImplementation()!
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://node.test')
    if (url.pathname === '/api/v1/bounties') {
      const items = list[url.searchParams.get('state') ?? 'open'] ?? []
      const res = json(items)
      res.headers.set('X-Total-Count', String(items.length))
      return res
    }
    if (url.pathname.endsWith('/bounty')) return issue ? json(issue) : json({ message: 'not found', code: 'not_found' }, 404)
    return chainAnswer(input, init)
  })
  return fetchMock
}

describe('BountiesScreen', () => {
  it('lists open bounties by value, then the paid history, and filters by repository and language', async () => {
    const fetchMock = stubBounties(
      {
        open: [bounty({ title: 'It crashes', total: 2_500_000 }), bounty({ number: 5, title: 'Slow start', total: 1_000_000, funder_count: 1, language: '' })],
        paid: [bounty({ number: 1, title: 'Fixed leak', status: 'paid', total: 0, paid_amount: 7_000_000, paid_height: 42, paid_to: { address: OTHER, username: 'bob' } })],
      },
      null,
    )
    renderScreen(<BountiesScreen />, '/bounties')
    const table = await screen.findByRole('table', { name: 'Open' })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(3)
    await waitFor(() => expect(within(rows[1]).getByText('2.5 DFG')).toBeTruthy())
    expect(within(rows[1]).getByRole('link', { name: 'It crashes' }).getAttribute('href')).toBe('/ada/engine/issues/3')
    expect(within(rows[2]).getByText('Slow start')).toBeTruthy()
    // The repository's main language shows when the node knows it.
    expect(within(rows[1]).getByText('Go')).toBeTruthy()
    expect(within(rows[1]).getByText('Language:')).toBeTruthy()
    expect(within(rows[2]).queryByText('Language:')).toBeNull()

    fireEvent.click(screen.getByRole('tab', { name: 'Paid' }))
    const paid = await screen.findByRole('table', { name: 'Paid' })
    expect(await within(paid).findByText('Fixed leak')).toBeTruthy()
    expect(within(paid).getByRole('link', { name: 'bob' })).toBeTruthy()
    expect(within(paid).getByText('7 DFG')).toBeTruthy()

    fireEvent.change(screen.getByLabelText('Repository'), { target: { value: 'not a repo' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect(screen.getByRole('alert').textContent).toBe('Write the repository as owner/name.')
    fireEvent.change(screen.getByLabelText('Repository'), { target: { value: 'ada/engine' } })
    const language = screen.getByLabelText('Language')
    // Suggestions come from a datalist tied to the input; any name may be typed.
    const suggestions = document.getElementById(language.getAttribute('list')!)!
    expect(suggestions.tagName).toBe('DATALIST')
    expect(Array.from(suggestions.querySelectorAll('option'), (o) => o.value)).toContain('TypeScript')
    fireEvent.change(language, { target: { value: ' TypeScript ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }))
    await waitFor(() => {
      const last = callsTo(fetchMock, '/api/v1/bounties').at(-1)!
      expect([last.searchParams.get('state'), last.searchParams.get('repo'), last.searchParams.get('language')]).toEqual(['paid', 'ada/engine', 'TypeScript'])
    })
  })

  it('says when there is nothing, and when the filters match nothing', async () => {
    stubBounties({}, null)
    renderScreen(<BountiesScreen />, '/bounties')
    expect(await screen.findByText('No open bounties yet. Fund an issue from its page.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'rust' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }))
    expect(await screen.findByText('No open bounties match these filters.')).toBeTruthy()
  })
})

const PANEL = { owner: 'ada', repo: 'engine', repoId: 4, isPrivate: false, number: 3, open: true }

describe('BountyPanel', () => {
  it('shows the total and the funders, and asks a signed-out visitor to sign in', async () => {
    stubBounties({}, bounty({ funders: [{ address: OTHER, username: 'bob', amount: 2_500_000, expiry: 900 }] }))
    renderScreen(<BountyPanel {...PANEL} />)
    await waitFor(() => expect(screen.getByTestId('bounty-total').textContent).toBe('2.5 DFG'))
    expect(within(screen.getByRole('list', { name: 'Funders' })).getByText('refundable after block 900')).toBeTruthy()
    expect(screen.getByText('Sign in with your wallet to fund this issue.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Fund this issue' })).toBeNull()
  })

  it('shows nothing for a private repository', () => {
    const fetchMock = stubBounties({}, null)
    const { container } = renderScreen(<BountyPanel {...PANEL} isPrivate />)
    expect(container.textContent).toBe('')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('checks the amount and expiry, then signs a BountyFund and shows it committed', async () => {
    const wallet = installWallet()
    const posted: unknown[] = []
    const chain = bountyChain()
    chain.relay = (body) => {
      posted.push(body)
      return schemaFixture('chain.Result', { hash: HASH(90), height: 8 })
    }
    stubBounties({}, bounty({ status: 'none', total: 0, funder_count: 0, funders: [] }), chain)
    signIn(WALLET)
    renderScreen(<BountyPanel {...PANEL} />)
    expect(await screen.findByText('No bounty on this issue yet.')).toBeTruthy()
    const form = await screen.findByRole('form', { name: 'Fund this issue' })
    fireEvent.change(within(form).getByLabelText('Refundable after block'), { target: { value: '7' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Fund this issue' }))
    const alerts = within(form).getAllByRole('alert').map((a) => a.textContent)
    expect(alerts).toEqual(['Enter an amount.', 'Enter a block height above the current one (7).'])
    expect(wallet.requests).toEqual([])

    fireEvent.change(within(form).getByLabelText('Amount (DFG)'), { target: { value: '1.5' } })
    fireEvent.change(within(form).getByLabelText('Refundable after block'), { target: { value: '500' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Fund this issue' }))
    await within(form).findByText('Committed in block 8.')
    const [signed] = wallet.signed()
    expect(signed.primaryType).toBe('BountyFund')
    expect(Object.entries(signed.message)).toEqual([
      ['from', WALLET.toLowerCase()],
      ['repo', '4'],
      ['issue', '3'],
      ['amount', '1500000'],
      ['expiry', '500'],
      ['nonce', '3'],
    ])
    expect(posted).toMatchObject([{ type: 'BountyFund', message: { repo: '4', issue: '3', amount: '1500000', expiry: '500' } }])
  })

  it('shows the chain refusing a funding, with its code', async () => {
    installWallet()
    const chain = bountyChain()
    chain.relay = () => json({ message: 'field "issue": the issue is closed and takes no new funding', code: 'bounty_issue_closed', field: 'issue' }, 422)
    stubBounties({}, bounty({ status: 'none', total: 0, funders: [] }), chain)
    signIn(WALLET)
    renderScreen(<BountyPanel {...PANEL} />)
    const form = await screen.findByRole('form', { name: 'Fund this issue' })
    fireEvent.change(within(form).getByLabelText('Amount (DFG)'), { target: { value: '2' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Fund this issue' }))
    expect(await within(form).findByText(/the issue is closed/)).toBeTruthy()
    expect(within(form).getByText(/bounty_issue_closed/)).toBeTruthy()
  })

  it('offers the refund only once the share expired, and signs a BountyRefund', async () => {
    const wallet = installWallet()
    const chain = bountyChain()
    stubBounties({}, bounty({ funders: [{ address: WALLET, username: 'ada', amount: 1_000_000, expiry: 5 }] }), chain)
    signIn(WALLET)
    renderScreen(<BountyPanel {...PANEL} />)
    const refund = await screen.findByRole('button', { name: 'Refund my share' })
    fireEvent.click(refund)
    await screen.findByText('Committed in block 8.')
    expect(wallet.signed()[0].primaryType).toBe('BountyRefund')
    expect(wallet.signed()[0].message).toMatchObject({ repo: '4', issue: '3' })
  })

  it('does not offer the refund before the expiry', async () => {
    installWallet()
    stubBounties({}, bounty({ funders: [{ address: WALLET, username: 'ada', amount: 1_000_000, expiry: 50 }] }))
    signIn(WALLET)
    renderScreen(<BountyPanel {...PANEL} />)
    expect(await screen.findByRole('form', { name: 'Fund this issue' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Refund my share' })).toBeNull()
  })
})
