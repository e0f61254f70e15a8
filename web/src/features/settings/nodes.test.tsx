import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Delegation } from '@/lib/chain/delegation'
import { useAuthStore } from '@/stores/auth'
import { useDelegationStore } from '@/stores/delegation'
import { fakeApi } from '@/test/auth'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { ADDRESS, announceWallet, CHAIN_PARAMS, fakeProvider, signedTypedData } from '@/test/wallet'
import SettingsScreen from './SettingsScreen'

preloadNamespaces('settings', 'auth', 'sshkeys')

beforeAll(async () => {
  await import('viem')
})

afterEach(() => {
  act(() => useDelegationStore.getState().clear())
})

const THIS_NODE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const OLD_NODE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

const rows: Delegation[] = [
  {
    delegate: THIS_NODE,
    node: { url: 'https://forge.example.org' },
    scopes: ['issue', 'repository'],
    since: 1200,
    sinceTime: '2026-11-30T10:00:00Z',
    expiry: 122160,
    live: true,
    thisNode: true,
  },
  { delegate: OLD_NODE, node: null, scopes: ['misc'], since: 40, sinceTime: '2026-10-01T08:00:00Z', expiry: 900, live: false, thisNode: false },
]

function signedIn() {
  act(() => useAuthStore.getState().startSession({ username: 'ada', walletAddress: ADDRESS }, 'csrf-n'))
}

describe('Authorized nodes tab', () => {
  it('lists the delegations with their node, scopes, blocks and state', async () => {
    signedIn()
    fakeApi({ 'GET /api/v1/user/delegations': () => rows })
    renderScreen(<SettingsScreen />, '/settings?tab=nodes')
    expect(screen.getByRole('tab', { name: 'Authorized nodes' }).getAttribute('aria-selected')).toBe('true')
    const list = await screen.findByRole('list', { name: 'Authorized nodes' })
    const [current, old] = within(list).getAllByRole('listitem')
    expect(within(current).getByText('https://forge.example.org')).toBeTruthy()
    expect(within(current).getByText('This node')).toBeTruthy()
    expect(within(current).getByText('Active')).toBeTruthy()
    expect(within(current).getByText('Allowed: issues and comments, repositories and pull requests')).toBeTruthy()
    expect(within(current).getByText(/^Since block 1200 \(.+\) · until block 122160$/)).toBeTruthy()
    // A node no longer registered goes by its short address.
    expect(within(old).getByText('0x3C44…93BC')).toBeTruthy()
    expect(within(old).getByText('Expired')).toBeTruthy()
    expect(within(old).queryByText('This node')).toBeNull()
  })

  it('says so when there is none', async () => {
    signedIn()
    fakeApi({ 'GET /api/v1/user/delegations': () => [] })
    renderScreen(<SettingsScreen />, '/settings?tab=nodes')
    expect(await screen.findByText('You have not authorized any node yet. Signing in asks you to authorize the node you use.')).toBeTruthy()
  })

  it('revokes one with an Undelegate the wallet signs, after a confirmation, then refreshes', async () => {
    signedIn()
    let list = rows
    const api = fakeApi({
      'GET /api/v1/user/delegations': () => list,
      'GET /api/v1/chain/params': () => CHAIN_PARAMS,
      [`GET /api/v1/accounts/${ADDRESS}`]: () => ({ address: ADDRESS, balance: 0, staked: 0, unbonding: 0, nonce: 6 }),
      'POST /api/v1/chain/txs': () => {
        list = rows.slice(1)
        return { hash: '0xbeef', height: 1300, code: 0, log: '' }
      },
    })
    const wallet = fakeProvider()
    announceWallet('Alpha Wallet', wallet.provider)
    renderScreen(<SettingsScreen />, '/settings?tab=nodes')
    const items = within(await screen.findByRole('list', { name: 'Authorized nodes' })).getAllByRole('listitem')
    fireEvent.click(within(items[0]).getByRole('button', { name: 'Revoke https://forge.example.org' }))
    const confirm = within(items[0]).getByRole('group', { name: 'Confirm revoking https://forge.example.org' })
    expect(api.find('POST', '/api/v1/chain/txs')).toHaveLength(0)
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }))

    await waitFor(() => expect(screen.queryByText('https://forge.example.org')).toBeNull(), { timeout: 5000 })
    const [typed] = signedTypedData(wallet.calls)
    expect(typed.primaryType).toBe('Undelegate')
    const [tx] = api.find('POST', '/api/v1/chain/txs')
    expect(tx.body).toMatchObject({ type: 'Undelegate', message: { from: ADDRESS, account: ADDRESS, delegate: THIS_NODE, nonce: '6' } })
    // This node can no longer post for the user: the app-wide notice offers to authorize it again.
    expect(useDelegationStore.getState().status).toBe('declined')
  })
})
