import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Header } from '@/app/Header'
import { AccountNotices } from '@/features/auth/AccountNotices'
import { postJSON } from '@/lib/http'
import { useAuthStore } from '@/stores/auth'
import { useDelegationStore } from '@/stores/delegation'
import { type ApiRoute, fakeApi, serverUser } from '@/test/auth'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import { ADDRESS, announceWallet, CHAIN_PARAMS, fakeProvider, PRIVATE_KEY, type RpcCall, signedTypedData, userRejected } from '@/test/wallet'

preloadNamespaces('auth')

beforeAll(async () => {
  await Promise.all([import('viem'), import('viem/siwe'), import('viem/accounts')])
})

afterEach(() => {
  act(() => useDelegationStore.getState().clear())
  localStorage.clear()
})

const SLOW = { timeout: 5000 }
/** This node's key, in lower case as a server may send it. */
const NODE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const NODE_CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SCOPES = 'issue,misc,notification,organization,repository,user'

const need = (needed = true) => ({
  needed,
  delegate: NODE,
  scopes: SCOPES,
  expiry: 120960,
  message: { from: ADDRESS.toLowerCase(), delegate: NODE, scopes: SCOPES, expiry: 120960, nonce: 4 },
})

function api(over: Record<string, ApiRoute> = {}) {
  return fakeApi({
    'GET /api/v1/auth/session': () => json({ message: 'not signed in', code: 'unauthenticated' }, 401),
    'GET /api/v1/chain/params': () => CHAIN_PARAMS,
    'GET /api/v1/auth/nonce': () => ({ nonce: 'k3Hq9ZpR2vXw8YtL', expiresAt: '2030-01-01T00:00:00Z' }),
    'POST /api/v1/auth/siwe': () => ({ user: serverUser(), csrfToken: 'csrf-1' }),
    'GET /api/v1/user/delegation': () => need(),
    'POST /api/v1/chain/txs': () => ({ hash: '0xabc', height: 12, code: 0, log: '' }),
    ...over,
  })
}

async function signTyped(call: RpcCall) {
  const { privateKeyToAccount } = await import('viem/accounts')
  const typed = JSON.parse((call.params as [string, string])[1])
  const { EIP712Domain: _d, ...types } = typed.types
  return privateKeyToAccount(PRIVATE_KEY).signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message })
}

async function chooseWallet() {
  renderScreen(
    <>
      <Header />
      <AccountNotices />
    </>,
    '/about',
  )
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  const dialog = await screen.findByRole('dialog', { name: 'Sign in with your wallet' }, SLOW)
  fireEvent.click(await within(dialog).findByRole('button', { name: 'Alpha Wallet' }))
  return dialog
}

describe('sign-in delegation', () => {
  it('asks for the Delegate signature as a second prompt, says why, and relays it', async () => {
    const server = api()
    let release = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const wallet = fakeProvider({
      eth_signTypedData_v4: async (call) => {
        await gate
        return signTyped(call)
      },
    })
    announceWallet('Alpha Wallet', wallet.provider)
    const dialog = await chooseWallet()

    // While the wallet shows the second prompt, the dialog says what it is for.
    expect(
      await within(dialog).findByText(
        'Second signature: allow this node to post your issues, comments and pushes on the chain until block 120960. You can revoke it in Settings.',
        {},
        SLOW,
      ),
    ).toBeTruthy()
    expect(useAuthStore.getState().isAuthenticated).toBe(true)
    release()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW)

    expect(wallet.calls.map((c) => c.method)).toEqual(['eth_requestAccounts', 'personal_sign', 'eth_signTypedData_v4'])
    const [typed] = signedTypedData(wallet.calls)
    expect(typed.primaryType).toBe('Delegate')
    expect(typed.message).toMatchObject({ from: ADDRESS.toLowerCase(), delegate: NODE, expiry: '120960', nonce: '4' })
    // The server's message, relayed as the chain's type orders it: addresses checksummed, numbers as decimal strings.
    const [tx] = server.find('POST', '/api/v1/chain/txs')
    const body = tx.body as { type: string; message: Record<string, string>; signature: `0x${string}` }
    expect(body.type).toBe('Delegate')
    expect(body.message).toEqual({ from: ADDRESS, delegate: NODE_CHECKSUMMED, scopes: SCOPES, expiry: '120960', nonce: '4' })
    expect(Object.keys(body.message)).toEqual(['from', 'delegate', 'scopes', 'expiry', 'nonce'])
    expect(tx.headers.get('X-CSRF-Token')).toBe('csrf-1')
    const { recoverTypedDataAddress } = await import('viem')
    const { EIP712Domain: _d, ...types } = CHAIN_PARAMS.types
    expect(await recoverTypedDataAddress({ domain: CHAIN_PARAMS.eip712Domain, types, primaryType: 'Delegate', message: body.message, signature: body.signature })).toBe(ADDRESS)
    expect(useDelegationStore.getState().status).toBe('ok')
  }, 15_000)

  it('asks nothing more when this node already holds a live delegation', async () => {
    const server = api({ 'GET /api/v1/user/delegation': () => need(false) })
    const wallet = fakeProvider()
    announceWallet('Alpha Wallet', wallet.provider)
    await chooseWallet()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW)
    expect(wallet.calls.map((c) => c.method)).toEqual(['eth_requestAccounts', 'personal_sign'])
    expect(server.find('POST', '/api/v1/chain/txs')).toHaveLength(0)
  })

  it('keeps a user who declines the second prompt signed in, with a notice that offers it again', async () => {
    const server = api()
    let reject = true
    const wallet = fakeProvider({ eth_signTypedData_v4: (call) => (reject ? userRejected() : signTyped(call)) })
    announceWallet('Alpha Wallet', wallet.provider)
    const dialog = await chooseWallet()

    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toBe('You declined the request in your wallet. Nothing was signed; you can try again.')
    expect(within(dialog).getByText(/You are signed in, but this node cannot post your issues, comments or pushes/)).toBeTruthy()
    expect(useAuthStore.getState().isAuthenticated).toBe(true)
    expect(useDelegationStore.getState().status).toBe('declined')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }))
    expect(screen.queryByRole('dialog')).toBeNull()

    // Every page says so until the user allows it.
    const notice = await screen.findByRole('region', { name: 'This node cannot post for you yet.' })
    expect(within(notice).getByText(/your issues, comments and pushes through this node will be refused/)).toBeTruthy()
    reject = false
    fireEvent.click(within(notice).getByRole('button', { name: 'Allow this node' }))
    await waitFor(() => expect(screen.queryByRole('region', { name: 'This node cannot post for you yet.' })).toBeNull(), SLOW)
    expect(server.find('POST', '/api/v1/chain/txs')).toHaveLength(1)
    expect(useDelegationStore.getState().status).toBe('ok')
  })

  it('retries the second prompt from the dialog', async () => {
    api()
    let reject = true
    announceWallet('Alpha Wallet', fakeProvider({ eth_signTypedData_v4: (call) => (reject ? userRejected() : signTyped(call)) }).provider)
    const dialog = await chooseWallet()
    await within(dialog).findByRole('alert', {}, SLOW)
    reject = false
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW)
    expect(useDelegationStore.getState().status).toBe('ok')
  })
})

describe('a write refused as not delegated', () => {
  it('asks the user to sign in again, which runs both prompts', async () => {
    const server = api({
      'GET /api/v1/auth/session': () => ({ user: serverUser(), csrfToken: 'csrf-1' }),
      'POST /api/v1/repos/ada/demo/issues': () => json({ code: 'not_delegated', message: 'this node holds no live delegation from you' }, 401),
    })
    const wallet = fakeProvider()
    announceWallet('Alpha Wallet', wallet.provider)
    act(() => useAuthStore.getState().startSession({ username: 'ada', walletAddress: ADDRESS }, 'csrf-1'))
    renderScreen(
      <>
        <Header />
        <AccountNotices />
      </>,
      '/ada/demo/issues/new',
    )
    await act(async () => {
      await expect(postJSON('/api/v1/repos/ada/demo/issues', { title: 'x' })).rejects.toMatchObject({ status: 401, code: 'not_delegated' })
    })

    const prompt = await screen.findByRole('dialog', { name: 'Sign in again' })
    expect(within(prompt).getByText('Your authorization for this node has expired or was revoked — sign in again to keep posting through it.')).toBeTruthy()
    fireEvent.click(within(prompt).getByRole('button', { name: 'Sign in again' }))
    const chooser = await screen.findByRole('dialog', { name: 'Sign in with your wallet' }, SLOW)
    fireEvent.click(await within(chooser).findByRole('button', { name: 'Alpha Wallet' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW)
    expect(wallet.calls.map((c) => c.method)).toEqual(['eth_requestAccounts', 'personal_sign', 'eth_signTypedData_v4'])
    expect(server.find('POST', '/api/v1/chain/txs')).toHaveLength(1)
    expect(useDelegationStore.getState().status).toBe('ok')
  })

  it('leaves the notice with its retry when the user puts it off', async () => {
    api()
    act(() => useAuthStore.getState().startSession({ username: 'ada', walletAddress: ADDRESS }, 'csrf-1'))
    act(() => useDelegationStore.getState().expired('gone'))
    renderScreen(<AccountNotices />, '/about')
    const prompt = await screen.findByRole('dialog', { name: 'Sign in again' })
    fireEvent.click(within(prompt).getByRole('button', { name: 'Later' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('button', { name: 'Allow this node' })).toBeTruthy()
  })

  it('shows nothing to a signed-out visitor', () => {
    act(() => useDelegationStore.getState().declined())
    renderScreen(<AccountNotices />, '/about')
    expect(screen.queryByRole('region')).toBeNull()
  })
})
