import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ApiRoute, fakeApi, serverUser } from '@/test/auth'
import { ADDRESS, CHAIN_PARAMS, fakeProvider, injectWallet } from '@/test/wallet'
import { useAuthStore } from '@/stores/auth'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { UsernamePrompt, usernamePromptSkipKey } from './UsernamePrompt'
import { isDefaultUsername, usernameProblem } from './usernameRules'

preloadNamespaces('settings')

beforeAll(async () => {
  await Promise.all([import('viem'), import('viem/accounts'), import('./ChooseUsernameCard')])
})

const SLOW = { timeout: 5000 }
const DEFAULT_NAME = `user-${ADDRESS.slice(2, 22).toLowerCase()}`

function signedInAs(username: string) {
  act(() => useAuthStore.getState().startSession({ username, walletAddress: ADDRESS }, 'csrf-s'))
}

function promptApi(over: Record<string, ApiRoute> = {}) {
  return fakeApi({
    'GET /api/v1/usernames/grace': () => ({ name: 'grace', available: false, owner: '0x0000000000000000000000000000000000000001', reason: 'this username is taken' }),
    'GET /api/v1/usernames/ada': () => ({ name: 'ada', available: true }),
    'GET /api/v1/chain/params': () => CHAIN_PARAMS,
    [`GET /api/v1/accounts/${ADDRESS}`]: () => ({ address: ADDRESS, username: DEFAULT_NAME, balance: 0, staked: 0, unbonding: 0, nonce: 0 }),
    ...over,
  })
}

afterEach(() => {
  localStorage.clear()
  act(() => useAuthStore.getState().logout())
})

describe('usernameRules', () => {
  it('knows default names and refuses what the chain refuses', () => {
    expect(isDefaultUsername('user-3c44cdddb6a9')).toBe(true)
    expect(isDefaultUsername(DEFAULT_NAME)).toBe(true)
    expect(isDefaultUsername('user-ada')).toBe(false)
    expect(usernameProblem('ada-l')).toBeNull()
    expect(usernameProblem('no spaces')).toBe('shape')
    expect(usernameProblem('x'.repeat(40))).toBe('shape')
    expect(usernameProblem('-ada')).toBe('edges')
    expect(usernameProblem('ada.')).toBe('edges')
    expect(usernameProblem('a--b')).toBe('edges')
    expect(usernameProblem('tools.git')).toBe('git')
    expect(usernameProblem('user-3c44cdddb6a9')).toBe('default')
  })
})

describe('UsernamePrompt', () => {
  it('asks nothing of a signed-out visitor or an account that has a name', async () => {
    const api = promptApi()
    const { unmount } = renderScreen(<UsernamePrompt />)
    expect(screen.queryByRole('heading', { name: 'Choose your username' })).toBeNull()
    unmount()
    signedInAs('ada')
    renderScreen(<UsernamePrompt />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('heading', { name: 'Choose your username' })).toBeNull()
    expect(api.requests).toEqual([])
  })

  it('checks the name as it is typed, and claims it with the wallet', async () => {
    signedInAs(DEFAULT_NAME)
    let claimed = false
    const api = promptApi({
      'POST /api/v1/chain/txs': () => {
        claimed = true
        return { hash: 'AB'.repeat(32), height: 12, code: 0, log: '' }
      },
      'GET /api/v1/user': () => serverUser({ login: claimed ? 'ada' : DEFAULT_NAME }),
    })
    const wallet = fakeProvider()
    injectWallet(wallet.provider)
    renderScreen(<UsernamePrompt />)
    expect(await screen.findByRole('heading', { name: 'Choose your username' }, SLOW)).toBeTruthy()
    const input = screen.getByLabelText('Username')
    const claim = screen.getByRole('button', { name: 'Claim username' }) as HTMLButtonElement

    fireEvent.change(input, { target: { value: 'a--b' } })
    expect(screen.getByText('Start and end with a letter or digit, and put no two of - _ . in a row.')).toBeTruthy()
    expect(input.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(input, { target: { value: 'grace' } })
    expect(await screen.findByText('grace is already taken.')).toBeTruthy()
    expect(claim.disabled).toBe(true)
    fireEvent.change(input, { target: { value: 'ada' } })
    expect(await screen.findByText('ada is available.')).toBeTruthy()
    // Only well-formed names were asked about, once each, after typing settled.
    expect(api.requests.filter((r) => r.url.startsWith('/api/v1/usernames/')).map((r) => r.url)).toEqual([
      '/api/v1/usernames/grace',
      '/api/v1/usernames/ada',
    ])

    fireEvent.click(claim)
    await waitFor(() => expect(useAuthStore.getState().user?.username).toBe('ada'), SLOW)
    const [post] = api.find('POST', '/api/v1/chain/txs')
    expect(post.body).toMatchObject({ type: 'ClaimUsername', message: { from: ADDRESS, username: 'ada', nonce: 0 } })
    // Named now: the form is gone, and its place says so until closed.
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Choose your username' })).toBeNull())
    expect((await screen.findByRole('status')).textContent).toBe('Your username is now ada.')
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByText('Your username is now ada.')).toBeNull())
  })

  it('remembers a skip for this account, and still asks another', async () => {
    signedInAs(DEFAULT_NAME)
    promptApi()
    const { unmount } = renderScreen(<UsernamePrompt />)
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }, SLOW))
    expect(screen.queryByRole('heading', { name: 'Choose your username' })).toBeNull()
    expect(localStorage.getItem(usernamePromptSkipKey(ADDRESS))).not.toBeNull()
    unmount()

    // A later visit does not ask again.
    renderScreen(<UsernamePrompt />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('heading', { name: 'Choose your username' })).toBeNull()
    // Another account signed in on this browser is asked.
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    act(() => useAuthStore.getState().setUser({ username: 'user-70997970c51812dc3a01', walletAddress: other }))
    expect(await screen.findByRole('heading', { name: 'Choose your username' }, SLOW)).toBeTruthy()
  })
})
