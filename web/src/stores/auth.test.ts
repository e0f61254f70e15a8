import { beforeEach, describe, expect, it } from 'vitest'
import { AUTH_STORAGE_KEY, useAuthStore } from './auth'

const initial = useAuthStore.getState()

beforeEach(() => {
  localStorage.clear()
  useAuthStore.setState(initial, true)
})

describe('auth store', () => {
  it('starts signed out', () => {
    const s = useAuthStore.getState()
    expect([s.user, s.token, s.csrfToken, s.isAuthenticated, s.isLoading]).toEqual([null, null, null, false, false])
  })

  it('signs in with user and token and persists them', () => {
    useAuthStore.getState().login({ username: 'ada' }, 'tok')
    const s = useAuthStore.getState()
    expect(s).toMatchObject({ user: { username: 'ada' }, token: 'tok', isAuthenticated: true })
    const saved = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!)
    expect(saved.state).toEqual({ user: { username: 'ada' }, token: 'tok', isAuthenticated: true })
  })

  it('starts a cookie session with its CSRF token, persisted until sign-out', () => {
    useAuthStore.getState().startSession({ username: 'ada', walletAddress: '0xAbC' }, 'csrf-1')
    expect(useAuthStore.getState()).toMatchObject({ user: { username: 'ada', walletAddress: '0xAbC' }, token: null, csrfToken: 'csrf-1', isAuthenticated: true })
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).state).toEqual({
      user: { username: 'ada', walletAddress: '0xAbC' },
      token: null,
      isAuthenticated: true,
      csrfToken: 'csrf-1',
    })
    useAuthStore.getState().logout()
    expect(useAuthStore.getState().csrfToken).toBeNull()
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).state).toEqual({ user: null, token: null, isAuthenticated: false })
  })

  it('marks authenticated when only the user is set', () => {
    useAuthStore.getState().setUser({ username: 'bob' })
    expect(useAuthStore.getState()).toMatchObject({ user: { username: 'bob' }, token: null, isAuthenticated: true })
  })

  it('signs out, clearing user, token and the flag', () => {
    useAuthStore.getState().login({ username: 'ada' }, 'tok')
    useAuthStore.getState().logout()
    expect(useAuthStore.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false })
  })

  it('attaches and detaches a wallet on the signed-in user', () => {
    useAuthStore.getState().login({ username: 'ada' }, 'tok')
    useAuthStore.getState().connectWallet('0xAbC')
    expect(useAuthStore.getState().user).toEqual({ username: 'ada', walletAddress: '0xAbC' })
    useAuthStore.getState().disconnectWallet()
    expect(useAuthStore.getState().user).toEqual({ username: 'ada' })
  })

  it('keeps the user empty when a wallet connects with nobody signed in', () => {
    useAuthStore.getState().connectWallet('0xAbC')
    expect(useAuthStore.getState().user).toBeNull()
  })
})
