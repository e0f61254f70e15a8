import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { callsTo, fakeChain, HASH, installWallet, OTHER, stubChain, TREASURY, tx, WALLET } from '@/test/chain'
import { schemaFixture } from '@/test/schemaFixture'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import ExplorerScreen from './ExplorerScreen'
import { navigation, searchHref } from './search'
import StakingScreen from './StakingScreen'
import TreasuryScreen from './TreasuryScreen'
import ValidatorsScreen from './ValidatorsScreen'

preloadNamespaces('explorer', 'wallet')

const openExplorer = (query = '') => renderScreen(<ExplorerScreen />, `/explorer${query}`)
const rowsOf = (name: string) => within(screen.getByRole('table', { name })).getAllByRole('row').slice(1)

describe('ExplorerScreen', () => {
  it('shows the chain status, the latest blocks and the latest transactions', async () => {
    stubChain(fakeChain())
    openExplorer()
    expect(await screen.findByTestId('status-height')).toBeTruthy()
    expect(screen.getByTestId('status-height').textContent).toBe('7')
    expect(screen.getByTestId('status-supply').textContent).toBe('1,000,000 DFG')
    expect(screen.getByTestId('status-staked').textContent).toBe('250,000 DFG')
    expect(screen.getByTestId('status-accounts').textContent).toBe('3')

    await screen.findByRole('table', { name: 'Latest blocks' })
    const blocks = rowsOf('Latest blocks')
    expect(blocks).toHaveLength(2)
    expect(within(blocks[0]).getByRole('link', { name: '7' }).getAttribute('href')).toBe('/explorer?block=7')
    expect(within(blocks[0]).getAllByRole('cell')[4].textContent).toBe('1')

    const txs = rowsOf('Latest transactions')
    expect(txs).toHaveLength(1)
    expect(within(txs[0]).getByText('2.5 DFG')).toBeTruthy()
    expect(within(txs[0]).getByText('Success')).toBeTruthy()
    expect(within(txs[0]).getByRole('link', { name: '0x5290…9EE7' }).getAttribute('href')).toBe(`/explorer?address=${WALLET}`)
  })

  it('shows empty states on a chain without blocks or transactions', async () => {
    stubChain(fakeChain({ blocks: [], txs: [] }))
    openExplorer()
    expect(await screen.findByText('No blocks yet')).toBeTruthy()
    expect(await screen.findByText('No transactions yet')).toBeTruthy()
  })

  it('pages through the latest blocks', async () => {
    const chain = fakeChain({ blocks: Array.from({ length: 25 }, (_, i) => ({ ...fakeChain().blocks[1], height: 25 - i, hash: HASH(500 + i) })) })
    const fetchMock = stubChain(chain)
    openExplorer()
    const pager = await screen.findByRole('navigation', { name: 'Pages of Latest blocks' })
    expect(within(pager).getByText('Page 1 of 3')).toBeTruthy()
    expect(within(pager).getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true)
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(within(rowsOf('Latest blocks')[0]).getAllByRole('cell')[0].textContent).toBe('15'))
    expect(callsTo(fetchMock, '/api/v1/chain/blocks').map((u) => [u.searchParams.get('page'), u.searchParams.get('limit')])).toContainEqual(['2', '10'])
  })

  it('shows a block and its transactions from ?block=N', async () => {
    stubChain(fakeChain())
    openExplorer('?block=7')
    expect(await screen.findByRole('heading', { level: 2, name: 'Block 7' })).toBeTruthy()
    expect(await screen.findByText(`B${'0'.repeat(62)}7`)).toBeTruthy()
    expect(screen.getByText(`A${'0'.repeat(62)}7`)).toBeTruthy()
    expect(rowsOf('Transactions in this block')).toHaveLength(1)
    expect(screen.getByRole('link', { name: 'Previous block' }).getAttribute('href')).toBe('/explorer?block=6')
    expect(screen.getByRole('link', { name: 'Next block' }).getAttribute('href')).toBe('/explorer?block=8')
    expect(screen.getByRole('link', { name: 'Back to the latest blocks' }).getAttribute('href')).toBe('/explorer')
  })

  it('says when a block has no transactions, does not exist yet, or is not a height', async () => {
    const fetchMock = stubChain(fakeChain())
    const { unmount } = openExplorer('?block=6')
    expect(await screen.findByText('This block has no transactions')).toBeTruthy()
    unmount()
    const second = openExplorer('?block=99')
    expect(await screen.findByText('There is no block 99 yet.')).toBeTruthy()
    second.unmount()
    openExplorer('?block=abc')
    expect((await screen.findByRole('alert')).textContent).toMatch(/"abc" is not a block height/)
    expect(callsTo(fetchMock, '/api/v1/chain/blocks/abc')).toEqual([])
  })

  it('shows a transaction from ?tx=HASH, with the reason when it failed', async () => {
    const failed = tx({ hash: HASH(2), type: 'Tip', target: 'repo:alice/x', code: 9, log: 'insufficient funds: balance 1 < 2', amount: 2_000_000 })
    stubChain(fakeChain({ txs: [tx({ hash: HASH(1) }), failed] }))
    openExplorer(`?tx=${HASH(2)}`)
    expect(await screen.findByRole('heading', { level: 2, name: 'Transaction' })).toBeTruthy()
    const facts = await screen.findByText(HASH(2))
    const card = facts.closest('dl') as HTMLElement
    expect(within(card).getByText('Failed')).toBeTruthy()
    expect(within(card).getByText('insufficient funds: balance 1 < 2')).toBeTruthy()
    expect(within(card).getByText('repo:alice/x')).toBeTruthy()
    expect(within(card).getByText('2 DFG')).toBeTruthy()
    expect(within(card).getByRole('link', { name: WALLET }).getAttribute('href')).toBe(`/explorer?address=${WALLET}`)
    expect(within(card).getByRole('link', { name: '7' }).getAttribute('href')).toBe('/explorer?block=7')
  })

  it('says when no transaction has the hash', async () => {
    stubChain(fakeChain())
    openExplorer(`?tx=${HASH(404)}`)
    expect(await screen.findByText(`No transaction has the hash ${HASH(404)}.`)).toBeTruthy()
  })

  it("shows an address's balances and its transactions from ?address=", async () => {
    stubChain(fakeChain())
    openExplorer(`?address=${WALLET}`)
    expect(await screen.findByText('1,234.5 DFG')).toBeTruthy()
    expect(screen.getByText('ada')).toBeTruthy()
    expect(await screen.findByRole('table', { name: 'Transactions of this address' })).toBeTruthy()
    expect(rowsOf('Transactions of this address')).toHaveLength(1)
  })

  it('shows an address without transactions', async () => {
    stubChain(fakeChain())
    openExplorer(`?address=${OTHER.replace('fB', 'aa')}`)
    expect(await screen.findByText('This address has no transactions yet')).toBeTruthy()
    expect(screen.getByTestId('account-balance').textContent).toBe('0 DFG')
  })

  it('searches by height, hash or address with a full page load, and explains other input', async () => {
    stubChain(fakeChain())
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => {})
    openExplorer()
    const box = await screen.findByLabelText('Search by block height, transaction hash or address')
    const search = (q: string) => {
      fireEvent.change(box, { target: { value: q } })
      fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    }
    search('hello')
    expect(screen.getByText(/Enter a block height \(a whole number\)/)).toBeTruthy()
    expect(box.getAttribute('aria-invalid')).toBe('true')
    expect(go).not.toHaveBeenCalled()
    search(' 42 ')
    search(HASH(3))
    search(WALLET)
    expect(go.mock.calls.map((c) => c[0])).toEqual(['/explorer?block=42', `/explorer?tx=${HASH(3)}`, `/explorer?address=${WALLET}`])
    expect(screen.queryByText(/Enter a block height/)).toBeNull()
  })

  it('refreshes blocks and transactions when the polled height changes, and only then', async () => {
    const chain = fakeChain()
    const fetchMock = stubChain(chain)
    openExplorer()
    await screen.findByRole('table', { name: 'Latest blocks' })
    // The height is polled every 2 s; an unchanged height refreshes nothing.
    await waitFor(() => expect(callsTo(fetchMock, '/api/v1/chain/status').length).toBeGreaterThanOrEqual(2), { timeout: 4000 })
    expect(callsTo(fetchMock, '/api/v1/chain/blocks')).toHaveLength(1)
    expect(callsTo(fetchMock, '/api/v1/chain/txs')).toHaveLength(1)

    chain.blocks = [{ ...chain.blocks[0], height: 8, hash: HASH(8) }, ...chain.blocks]
    chain.status = { ...chain.status, height: 8 }
    expect(await screen.findByRole('link', { name: '8' }, { timeout: 4000 })).toBeTruthy()
    expect(screen.getByTestId('status-height').textContent).toBe('8')
    expect(callsTo(fetchMock, '/api/v1/chain/blocks')).toHaveLength(2)
    expect(callsTo(fetchMock, '/api/v1/chain/txs')).toHaveLength(2)
    expect(callsTo(fetchMock, '/api/v1/chain/params')).toHaveLength(1)
  }, 12_000)
})

describe('searchHref', () => {
  it.each([
    ['7', '/explorer?block=7'],
    ['007', '/explorer?block=7'],
    ['0', null],
    ['-1', null],
    [HASH(1), `/explorer?tx=${HASH(1)}`],
    [`0x${HASH(1).toLowerCase()}`, `/explorer?tx=0x${HASH(1).toLowerCase()}`],
    [WALLET.toLowerCase(), `/explorer?address=${WALLET.toLowerCase()}`],
    [WALLET.slice(0, 41), null],
    ['', null],
  ])('%j leads to %s', (q, want) => {
    expect(searchHref(q)).toBe(want)
  })
})

describe('ValidatorsScreen', () => {
  it('lists the validator set with voting power and share', async () => {
    stubChain(
      fakeChain({
        validators: [
          schemaFixture('index.Validator', { address: 'AA00000000000000000000000000000000000001', pubKey: 'a', power: 30 }),
          schemaFixture('index.Validator', { address: 'AA00000000000000000000000000000000000002', pubKey: 'b', power: 10 }),
        ],
      }),
    )
    renderScreen(<ValidatorsScreen />, '/validators')
    await screen.findByRole('table', { name: 'Validator set' })
    const rows = rowsOf('Validator set')
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['AA00000000000000000000000000000000000001', '30', '75.00%'],
      ['AA00000000000000000000000000000000000002', '10', '25.00%'],
    ])
    expect(screen.getByText('Validators: 2 · total voting power: 40')).toBeTruthy()
  })

  it('shows the empty state', async () => {
    stubChain(fakeChain({ validators: [] }))
    renderScreen(<ValidatorsScreen />, '/validators')
    expect(await screen.findByText('No validators')).toBeTruthy()
  })
})

describe('StakingScreen', () => {
  it('shows what is staked on the chain and asks a visitor to sign in to stake', async () => {
    stubChain(fakeChain())
    renderScreen(<StakingScreen />, '/staking')
    expect((await screen.findByTestId('staking-total')).textContent).toBe('250,000 DFG')
    expect(screen.getByTestId('staking-ofSupply').textContent).toBe('25.00%')
    expect(screen.getByText('Sign in with your wallet to stake and unstake tokens.')).toBeTruthy()
    expect(screen.queryByRole('tab')).toBeNull()
  })

  it("shows the user's stake and stakes with the wallet's form", async () => {
    const wallet = installWallet()
    stubChain(fakeChain())
    signIn(WALLET)
    renderScreen(<StakingScreen />, '/staking')
    expect((await screen.findByTestId('account-staked')).textContent).toBe('2 DFG')
    const tabs = await screen.findAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['Stake', 'Unstake'])
    fireEvent.change(screen.getByLabelText('Amount in DFG'), { target: { value: '5' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign and stake' }))
    expect(await screen.findByText('Committed in block 8.')).toBeTruthy()
    expect(wallet.signed()[0]).toMatchObject({ primaryType: 'Stake', message: { amount: '5000000' } })
  })
})

describe('TreasuryScreen', () => {
  const deposit = tx({ hash: HASH(7), type: 'TreasuryDeposit', to: TREASURY, amount: 10_000_000 })

  it('shows the treasury, its deposits, and asks a visitor to sign in to deposit', async () => {
    const fetchMock = stubChain(fakeChain({ txs: [tx({ hash: HASH(1) }), deposit] }))
    renderScreen(<TreasuryScreen />, '/treasury')
    expect((await screen.findByTestId('treasury-balance')).textContent).toBe('400,000 DFG')
    expect(screen.getByRole('link', { name: TREASURY }).getAttribute('href')).toBe(`/explorer?address=${TREASURY}`)
    await screen.findByRole('table', { name: 'Deposits' })
    expect(rowsOf('Deposits')).toHaveLength(1)
    expect(within(rowsOf('Deposits')[0]).getByText('Treasury deposit')).toBeTruthy()
    expect(callsTo(fetchMock, '/api/v1/chain/txs')[0].searchParams.get('type')).toBe('TreasuryDeposit')
    expect(screen.getByText('Sign in with your wallet to deposit into the treasury.')).toBeTruthy()
  })

  it('shows the empty state and deposits with a TreasuryDeposit transaction', async () => {
    const wallet = installWallet()
    stubChain(fakeChain({ txs: [] }))
    signIn(WALLET)
    renderScreen(<TreasuryScreen />, '/treasury')
    expect(await screen.findByText('No deposits yet')).toBeTruthy()
    fireEvent.change(await screen.findByLabelText('Amount in DFG'), { target: { value: '12.5' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign and deposit' }))
    expect(await screen.findByText('Committed in block 8.')).toBeTruthy()
    expect(wallet.signed()[0]).toMatchObject({ primaryType: 'TreasuryDeposit', message: { amount: '12500000', nonce: '3' } })
  })
})
