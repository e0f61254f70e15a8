import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { Header } from '@/app/Header'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import { ADDRESS, announceWallet, CHAIN_PARAMS, fakeProvider, injectWallet, userRejected } from '@/test/wallet'
import { useAuthStore } from '@/stores/auth'
import { reconcileSession, resetSessionSync } from '@/features/auth/session'
import { type ApiRoute, fakeApi, serverUser } from '@/test/auth'

preloadNamespaces('auth')

// viem is imported lazily by the sign-in; load it once up front so the first
// test does not spend its waiting time compiling it.
beforeAll(async () => {
  await Promise.all([import('viem'), import('viem/siwe'), import('viem/accounts')])
})

const SLOW = { timeout: 5000 }
const NONCE = 'k3Hq9ZpR2vXw8YtL'

/** The sign-in endpoints of a server that knows ada, with overrides. */
function signInApi(over: Record<string, ApiRoute> = {}) {
  return fakeApi({
    'GET /api/v1/auth/session': () => json({ message: 'not signed in', code: 'unauthenticated' }, 401),
    'GET /api/v1/chain/params': () => CHAIN_PARAMS,
    'GET /api/v1/auth/nonce': () => ({ nonce: NONCE, expiresAt: '2030-01-01T00:00:00Z' }),
    'POST /api/v1/auth/siwe': () => ({ user: serverUser(), csrfToken: 'csrf-1' }),
    'POST /api/v1/auth/logout': () => new Response(null, { status: 204 }),
    ...over,
  })
}

async function openChooser() {
  renderScreen(<Header />, '/about')
  fireEvent.click(screen.getByRole('button', { name: 'Login' }))
  return screen.findByRole('dialog', { name: 'Sign in with your wallet' }, SLOW)
}

describe('wallet chooser', () => {
  it('lists the EIP-6963 wallets with their icons and the injected one', async () => {
    signInApi()
    announceWallet('Alpha Wallet', fakeProvider().provider)
    announceWallet('Beta Wallet', fakeProvider().provider, 'org.example.beta', 'data:image/png;base64,iVBORw0KGgo=')
    injectWallet(fakeProvider().provider)
    const dialog = await openChooser()
    const list = await within(dialog).findByRole('list', { name: 'Wallets in this browser' })
    const options = within(list).getAllByRole('button')
    expect(options.map((b) => b.textContent)).toEqual(['Alpha Wallet', 'Beta Wallet', 'Browser wallet'])
    expect(options[1].querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(document.activeElement).toBe(options[0])
  })

  it('does not list an injected provider twice when it also announced itself', async () => {
    signInApi()
    const { provider } = fakeProvider()
    announceWallet('Alpha Wallet', provider)
    injectWallet(provider)
    const dialog = await openChooser()
    const list = await within(dialog).findByRole('list', { name: 'Wallets in this browser' })
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['Alpha Wallet'])
  })

  it('explains what a wallet is and where to get one when there is none', async () => {
    signInApi()
    const dialog = await openChooser()
    expect(await within(dialog).findByRole('heading', { name: 'No wallet found' })).toBeTruthy()
    expect(within(dialog).getByText(/A wallet is an app or browser extension that keeps your private key/)).toBeTruthy()
    const links = within(within(dialog).getByRole('list', { name: 'Wallets you can install' })).getAllByRole('link')
    expect(links[0].getAttribute('href')).toBe('https://metamask.io/download/')
    expect(links[0].textContent).toBe('MetaMask (opens in a new tab)')
    expect(links.every((a) => a.getAttribute('rel') === 'noopener noreferrer')).toBe(true)
    // A wallet installed meanwhile shows up on "Look again".
    injectWallet(fakeProvider().provider)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Look again' }))
    expect(await within(dialog).findByRole('button', { name: 'Browser wallet' })).toBeTruthy()
  })

  it('closes on Escape and gives focus back to Login', async () => {
    signInApi()
    const dialog = await openChooser()
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    await within(dialog).findByRole('heading', { name: 'No wallet found' })
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Login' }))
  })

  it('keeps Tab inside the dialog', async () => {
    signInApi()
    const dialog = await openChooser()
    const lookAgain = await within(dialog).findByRole('button', { name: 'Look again' })
    const close = within(dialog).getByRole('button', { name: 'Close' })
    lookAgain.focus()
    fireEvent.keyDown(lookAgain, { key: 'Tab' })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(lookAgain)
  })

  it('signs in with SIWE and fills the auth store', async () => {
    const api = signInApi()
    const wallet = fakeProvider()
    announceWallet('Alpha Wallet', wallet.provider)
    const dialog = await openChooser()
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Alpha Wallet' }))

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW)
    expect(useAuthStore.getState()).toMatchObject({
      user: { username: 'ada', walletAddress: ADDRESS, displayName: 'Ada Lovelace' },
      csrfToken: 'csrf-1',
      isAuthenticated: true,
    })
    const profile = screen.getByRole('link', { name: 'ada' })
    expect(profile.getAttribute('href')).toBe('/profile')
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy()

    // The EIP-4361 message: this page's host and origin, the chain's id, the server's nonce.
    const [siwe] = api.find('POST', '/api/v1/auth/siwe')
    const { message, signature } = siwe.body as { message: string; signature: `0x${string}` }
    expect(message).toMatch(/^localhost:3000 wants you to sign in with your Ethereum account:\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n\nSign in to dForge\n\n/)
    expect(message).toContain('\nURI: http://localhost:3000\n')
    expect(message).toContain('\nVersion: 1\n')
    expect(message).toContain('\nChain ID: 7771\n')
    expect(message).toContain(`\nNonce: ${NONCE}\n`)
    expect(message).toMatch(/\nIssued At: \d{4}-\d\d-\d\dT/)
    const { recoverMessageAddress } = await import('viem')
    expect(await recoverMessageAddress({ message, signature })).toBe(ADDRESS)
    expect(wallet.calls.map((c) => c.method)).toEqual(['eth_requestAccounts', 'personal_sign'])
    // Nothing was signed in yet, so the sign-in itself needs no CSRF token.
    expect(siwe.headers.get('X-CSRF-Token')).toBeNull()
  })

  it('asks for the second factor in the same dialog', async () => {
    let tries = 0
    const api = signInApi({
      'POST /api/v1/auth/siwe': () => ({ twoFactorRequired: true, challenge: 'challenge-1' }),
      'POST /api/v1/auth/2fa': (req) => {
        tries++
        return (req.body as { code: string }).code === '123456'
          ? { user: serverUser(), csrfToken: 'csrf-2' }
          : json({ message: 'invalid code', code: 'twofactor_invalid_code' }, 401)
      },
    })
    announceWallet('Alpha Wallet', fakeProvider().provider)
    const dialog = await openChooser()
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Alpha Wallet' }))

    const code = await within(dialog).findByLabelText('Authentication code', {}, SLOW)
    expect(document.activeElement).toBe(code)
    expect(useAuthStore.getState().isAuthenticated).toBe(false)
    fireEvent.change(code, { target: { value: '000000' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe('That code is not valid. Check it and try again; each code works only once.')
    expect(code.getAttribute('aria-invalid')).toBe('true')

    fireEvent.change(code, { target: { value: '123 456' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(tries).toBe(2)
    expect(api.find('POST', '/api/v1/auth/2fa').map((r) => r.body)).toEqual([
      { challenge: 'challenge-1', code: '000000' },
      { challenge: 'challenge-1', code: '123456' },
    ])
    expect(useAuthStore.getState()).toMatchObject({ user: { username: 'ada' }, csrfToken: 'csrf-2', isAuthenticated: true })
  })

  it('says so when the user rejects the signature, and can try again', async () => {
    const api = signInApi()
    let reject = true
    const wallet = fakeProvider({ personal_sign: () => (reject ? userRejected() : `0x${'11'.repeat(65)}`) })
    announceWallet('Alpha Wallet', wallet.provider)
    const dialog = await openChooser()
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Alpha Wallet' }))

    const alert = await within(dialog).findByRole('alert', {}, SLOW)
    expect(alert.textContent).toBe('You declined the request in your wallet. Nothing was signed; you can try again.')
    const steps = within(within(dialog).getByRole('list', { name: 'Sign-in progress' })).getAllByRole('listitem')
    expect(steps.map((s) => s.textContent)).toEqual([
      '✓Connect the wallet (done)',
      '✕Sign the sign-in message (failed)',
      '3Check the signature (not started)',
      '4Allow this node to post for you (not started)',
    ])
    expect(api.find('POST', '/api/v1/auth/siwe')).toHaveLength(0)
    expect(useAuthStore.getState().isAuthenticated).toBe(false)

    reject = false
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW)
    expect(useAuthStore.getState().isAuthenticated).toBe(true)
  })

  it.each([
    ['siwe_chain_mismatch', 'chain id 1 is not this chain', 'Your wallet is on a different network from this dForge chain. Switch the wallet to the dForge network, then try again.'],
    ['siwe_nonce_invalid', 'nonce already used', 'The sign-in request expired or was already used. Please try again.'],
    ['siwe_something_new', 'issued-at is in the future', 'The server said: issued-at is in the future'],
  ])('explains a 401 %s from the server', async (code, message, shown) => {
    signInApi({ 'POST /api/v1/auth/siwe': () => json({ message, code }, 401) })
    announceWallet('Alpha Wallet', fakeProvider().provider)
    const dialog = await openChooser()
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Alpha Wallet' }))
    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toBe(shown)
    expect(useAuthStore.getState().isAuthenticated).toBe(false)
  })

  it('shows the wait a rate limit asks for', async () => {
    signInApi({
      'GET /api/v1/auth/nonce': () =>
        new Response(JSON.stringify({ message: 'slow down', code: 'rate_limited' }), { status: 429, headers: { 'Retry-After': '30' } }),
    })
    announceWallet('Alpha Wallet', fakeProvider().provider)
    const dialog = await openChooser()
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Alpha Wallet' }))
    expect((await within(dialog).findByRole('alert', {}, SLOW)).textContent).toBe('Too many attempts. Try again in 30 seconds.')
  })
})

describe('header session', () => {
  function signedIn() {
    act(() => useAuthStore.getState().startSession({ username: 'ada', walletAddress: ADDRESS }, 'csrf-9'))
  }

  it('on load, checks a stored session with the server and signs out when it is gone', async () => {
    resetSessionSync()
    const api = signInApi()
    signedIn()
    renderScreen(<Header />, '/about')
    expect(screen.getByRole('link', { name: 'ada' })).toBeTruthy()
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy()
    expect(api.find('GET', '/api/v1/auth/session')).toHaveLength(1)
    expect(useAuthStore.getState().isAuthenticated).toBe(false)
  })

  it('makes no session call for a signed-out visitor', async () => {
    resetSessionSync()
    const api = signInApi()
    renderScreen(<Header />, '/about')
    await act(async () => {})
    expect(api.requests).toEqual([])
  })

  it('logs out on the server with the CSRF token, then clears the store', async () => {
    resetSessionSync()
    const api = signInApi({ 'GET /api/v1/auth/session': () => ({ user: serverUser(), csrfToken: 'csrf-9' }) })
    signedIn()
    renderScreen(<Header />, '/about')
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }))
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy()
    const [logout] = api.find('POST', '/api/v1/auth/logout')
    expect(logout.headers.get('X-CSRF-Token')).toBe('csrf-9')
    expect(logout.credentials).toBe('same-origin')
    expect(useAuthStore.getState()).toMatchObject({ user: null, token: null, csrfToken: null, isAuthenticated: false })
    expect(JSON.parse(localStorage.getItem('auth-storage')!).state).toEqual({ user: null, token: null, isAuthenticated: false })
  })

  it('clears the store even when the server cannot be reached', async () => {
    stubOffline()
    signedIn()
    renderScreen(<Header />, '/about')
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }))
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy()
    expect(useAuthStore.getState().isAuthenticated).toBe(false)
  })

  it('signs out a persisted session the server no longer knows (401)', async () => {
    signInApi()
    signedIn()
    await act(() => reconcileSession())
    expect(useAuthStore.getState()).toMatchObject({ user: null, csrfToken: null, isAuthenticated: false })
  })

  it('refreshes the user and CSRF token from a live session', async () => {
    signInApi({ 'GET /api/v1/auth/session': () => ({ user: serverUser({ login: 'ada-l', full_name: '' }), csrfToken: 'csrf-new' }) })
    signedIn()
    await act(() => reconcileSession())
    expect(useAuthStore.getState()).toMatchObject({ user: { username: 'ada-l', walletAddress: ADDRESS }, csrfToken: 'csrf-new', isAuthenticated: true })
    expect(useAuthStore.getState().user?.displayName).toBeUndefined()
  })

  it('keeps the session when the check fails for another reason', async () => {
    stubOffline()
    signedIn()
    await act(() => reconcileSession())
    expect(useAuthStore.getState()).toMatchObject({ user: { username: 'ada' }, csrfToken: 'csrf-9', isAuthenticated: true })
  })
})

function stubOffline() {
  return fakeApi({
    'GET /api/v1/auth/session': () => {
      throw new TypeError('Failed to fetch')
    },
    'POST /api/v1/auth/logout': () => {
      throw new TypeError('Failed to fetch')
    },
  })
}
