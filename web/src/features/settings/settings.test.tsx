import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { type ApiRoute, fakeApi, serverUser } from '@/test/auth'
import { ADDRESS, CHAIN_PARAMS, fakeProvider, injectWallet, userRejected } from '@/test/wallet'
import { useAuthStore } from '@/stores/auth'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import { validateProfile } from './profileForm'
import SettingsScreen from './SettingsScreen'

preloadNamespaces('settings', 'auth', 'users')

beforeAll(async () => {
  await Promise.all([import('viem'), import('viem/accounts'), import('lean-qr')])
})

const SLOW = { timeout: 5000 }

function signedIn() {
  act(() => useAuthStore.getState().startSession({ username: 'ada', walletAddress: ADDRESS, displayName: 'Ada Lovelace' }, 'csrf-s'))
}

/** A settings API for ada, with overrides. */
function settingsApi(over: Record<string, ApiRoute> = {}) {
  return fakeApi({
    'GET /api/v1/user': () => serverUser(),
    'GET /api/v1/user/notifications/preferences': () => ({ email: false, mentions: true, reviews: true, governance: false, rewards: true }),
    'GET /api/v1/user/2fa': () => ({ enabled: false, recoveryCodesLeft: 0 }),
    'GET /api/v1/users/ada/tokens': () => [],
    'GET /api/v1/user/sessions': () => [],
    ...over,
  })
}

/** settingsApi where ada-l is free to claim and ada's account has nonce 3. */
function claimApi(over: Record<string, ApiRoute> = {}) {
  return settingsApi({
    'GET /api/v1/usernames/ada-l': () => ({ name: 'ada-l', available: true }),
    'GET /api/v1/chain/params': () => CHAIN_PARAMS,
    [`GET /api/v1/accounts/${ADDRESS}`]: () => ({ address: ADDRESS, username: 'ada', balance: 5, staked: 0, unbonding: 0, nonce: 3 }),
    ...over,
  })
}

function typeInto(label: string, value: string) {
  const input = screen.getByLabelText(label)
  fireEvent.change(input, { target: { value } })
  fireEvent.blur(input)
  return input
}

describe('SettingsScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    const api = settingsApi()
    renderScreen(<SettingsScreen />, '/settings')
    expect(await screen.findByText('Sign in with your wallet to change your settings.')).toBeTruthy()
    expect(screen.queryByRole('tablist')).toBeNull()
    expect(api.requests).toEqual([])
  })

  it('moves between tabs with the arrow keys and keeps the tab in the address', async () => {
    signedIn()
    settingsApi()
    renderScreen(<SettingsScreen />, '/settings')
    const profile = await screen.findByRole('tab', { name: 'Profile' })
    expect(profile.getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('tab', { name: 'Security' }).tabIndex).toBe(-1)

    fireEvent.keyDown(profile, { key: 'ArrowLeft' })
    const security = screen.getByRole('tab', { name: 'Security' })
    expect(security.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(security)
    expect(window.location.search).toBe('?tab=security')
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy()

    fireEvent.keyDown(security, { key: 'Home' })
    expect(window.location.search).toBe('')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(window.location.search).toBe('?tab=account')
    expect(screen.getByText('Your username is ada.')).toBeTruthy()
  })

  it('opens the tab named in the address', async () => {
    signedIn()
    settingsApi()
    renderScreen(<SettingsScreen />, '/settings?tab=notifications')
    expect((await screen.findByRole('tab', { name: 'Notifications' })).getAttribute('aria-selected')).toBe('true')
    expect(await screen.findByLabelText('Mentions of your username')).toBeTruthy()
  })

  it('shows a load failure with a retry', async () => {
    signedIn()
    let fail = true
    settingsApi({ 'GET /api/v1/user': () => (fail ? json({ message: 'boom', code: 'internal' }, 500) : serverUser()) })
    renderScreen(<SettingsScreen />, '/settings')
    expect((await screen.findByRole('alert')).textContent).toContain('This could not be loaded.')
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(((await screen.findByLabelText('Display name')) as HTMLInputElement).value).toBe('Ada Lovelace')
  })
})

describe('profile tab', () => {
  it('fills the form from the server and validates fields once the user leaves them', async () => {
    signedIn()
    settingsApi()
    renderScreen(<SettingsScreen />, '/settings')
    expect(((await screen.findByLabelText('Display name')) as HTMLInputElement).value).toBe('Ada Lovelace')
    expect((screen.getByLabelText('Bio') as HTMLTextAreaElement).value).toBe('Analyst')
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.org')
    const wallet = screen.getByLabelText('Wallet address') as HTMLInputElement
    expect([wallet.value, wallet.readOnly]).toEqual([ADDRESS, true])

    const website = screen.getByLabelText('Website') as HTMLInputElement
    fireEvent.change(website, { target: { value: 'ftp://example.org' } })
    expect(screen.queryByText('Enter a website address that starts with http:// or https://.')).toBeNull()
    fireEvent.blur(website)
    expect(screen.getByText('Enter a website address that starts with http:// or https://.')).toBeTruthy()
    expect(website.getAttribute('aria-invalid')).toBe('true')
    typeInto('Website', 'https://example.org/me')
    expect(website.getAttribute('aria-invalid')).toBeNull()

    typeInto('Email', 'not-an-email')
    expect(screen.getByText('Enter a valid email address, like name@example.org.')).toBeTruthy()
    typeInto('Location', 'x'.repeat(51))
    expect(screen.getByText('Use at most 50 characters.')).toBeTruthy()
  })

  it('does not send an invalid form', async () => {
    signedIn()
    const api = settingsApi()
    renderScreen(<SettingsScreen />, '/settings')
    const email = await screen.findByLabelText('Email')
    fireEvent.change(email, { target: { value: 'nope' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(document.activeElement).toBe(email)
    expect(screen.getByText('Enter a valid email address, like name@example.org.')).toBeTruthy()
    expect(api.find('PATCH', '/api/v1/user/settings')).toHaveLength(0)
  })

  it('saves with PATCH and shows a 422 under its field', async () => {
    signedIn()
    let reject = true
    const api = settingsApi({
      'PATCH /api/v1/user/settings': (req) =>
        reject
          ? json({ message: 'this email is used by another account', code: 'email_taken', field: 'email' }, 422)
          : serverUser({ ...(req.body as object), full_name: 'Ada King' }),
    })
    renderScreen(<SettingsScreen />, '/settings')
    await screen.findByLabelText('Display name')
    typeInto('Display name', 'Ada King')
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))

    const error = await screen.findByText('this email is used by another account')
    const email = screen.getByLabelText('Email')
    expect(email.getAttribute('aria-invalid')).toBe('true')
    expect(email.getAttribute('aria-describedby')).toContain(error.id)
    expect(document.activeElement).toBe(email)
    const [patch] = api.find('PATCH', '/api/v1/user/settings')
    expect(patch.body).toEqual({ full_name: 'Ada King', description: 'Analyst', location: 'London', website: 'https://ada.example.org', email: 'ada@example.org' })
    expect(patch.headers.get('X-CSRF-Token')).toBe('csrf-s')

    // Editing the field clears the server's complaint; the next save goes through.
    typeInto('Email', 'ada.king@example.org')
    expect(screen.queryByText('this email is used by another account')).toBeNull()
    reject = false
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Profile saved.')).toBeTruthy()
    expect(useAuthStore.getState().user).toMatchObject({ username: 'ada', displayName: 'Ada King' })
  })
})

describe('account tab', () => {
  it('shows the wallet address with a copy button', async () => {
    signedIn()
    settingsApi()
    const copied: string[] = []
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void copied.push(t) } })
    renderScreen(<SettingsScreen />, '/settings?tab=account')
    expect((await screen.findByLabelText('Wallet address')).textContent).toBe(ADDRESS)
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }))
    expect(await screen.findByText('Copied.')).toBeTruthy()
    expect(copied).toEqual([ADDRESS])
  })

  it('checks a new username as the user types', async () => {
    signedIn()
    const api = settingsApi({
      'GET /api/v1/usernames/grace': () => ({ name: 'grace', available: false, owner: '0x0000000000000000000000000000000000000001', reason: 'this username is taken' }),
      'GET /api/v1/usernames/admin': () => ({ name: 'admin', available: false, reason: 'reserved name' }),
    })
    renderScreen(<SettingsScreen />, '/settings?tab=account')
    const input = await screen.findByLabelText('New username')
    const change = screen.getByRole('button', { name: 'Change username' }) as HTMLButtonElement

    fireEvent.change(input, { target: { value: 'no spaces' } })
    expect(screen.getByText('Use 1 to 39 characters: letters, digits, hyphens, underscores and dots.')).toBeTruthy()
    fireEvent.change(input, { target: { value: 'ADA' } })
    expect(screen.getByText('That is already your username.')).toBeTruthy()
    fireEvent.change(input, { target: { value: 'grace' } })
    expect(await screen.findByText('grace is already taken.')).toBeTruthy()
    expect(input.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(input, { target: { value: 'admin' } })
    expect(await screen.findByText('admin cannot be used: reserved name')).toBeTruthy()
    expect(change.disabled).toBe(true)
    // Invalid names and the user's own are never sent.
    expect(api.requests.filter((r) => r.url.startsWith('/api/v1/usernames/')).map((r) => r.url)).toEqual([
      '/api/v1/usernames/grace',
      '/api/v1/usernames/admin',
    ])
  })

  it('changes the username by signing ClaimUsername typed data and posting it', async () => {
    signedIn()
    let claimed = false
    const api = claimApi({
      'POST /api/v1/chain/txs': () => {
        claimed = true
        return { hash: 'AB'.repeat(32), height: 12, code: 0, log: '' }
      },
      'GET /api/v1/user': () => serverUser(claimed ? { login: 'ada-l' } : {}),
    })
    const wallet = fakeProvider()
    injectWallet(wallet.provider)
    renderScreen(<SettingsScreen />, '/settings?tab=account')
    fireEvent.change(await screen.findByLabelText('New username'), { target: { value: 'ada-l' } })
    expect(await screen.findByText('ada-l is available.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Change username' }))

    expect(await screen.findByText('Your username is now ada-l.', {}, SLOW)).toBeTruthy()
    expect(screen.getByText('Your username is ada-l.')).toBeTruthy()
    expect(useAuthStore.getState().user).toMatchObject({ username: 'ada-l', walletAddress: ADDRESS })

    const signCall = wallet.calls.find((c) => c.method === 'eth_signTypedData_v4')!
    const [signer, typedJSON] = signCall.params as [string, string]
    expect(signer).toBe(ADDRESS)
    const typed = JSON.parse(typedJSON)
    expect(typed.domain).toEqual({ name: 'dForge', version: '1', chainId: 7771 })
    expect(typed.primaryType).toBe('ClaimUsername')
    expect(typed.types.ClaimUsername).toEqual(CHAIN_PARAMS.types.ClaimUsername)
    expect(typed.types.EIP712Domain).toEqual(CHAIN_PARAMS.types.EIP712Domain)
    // viem hands addresses to the wallet in lower case.
    expect(typed.message).toEqual({ from: ADDRESS.toLowerCase(), username: 'ada-l', nonce: 3 })

    const [post] = api.find('POST', '/api/v1/chain/txs')
    const env = post.body as { type: string; message: Record<string, unknown>; signature: `0x${string}` }
    expect(env.type).toBe('ClaimUsername')
    expect(env.message).toEqual({ from: ADDRESS, username: 'ada-l', nonce: 3 })
    // The signature is the wallet's over exactly that typed data.
    const { recoverTypedDataAddress } = await import('viem')
    const { EIP712Domain: _d, ...types } = CHAIN_PARAMS.types
    expect(
      await recoverTypedDataAddress({
        domain: CHAIN_PARAMS.eip712Domain,
        types,
        primaryType: 'ClaimUsername',
        message: { from: ADDRESS, username: 'ada-l', nonce: 3n },
        signature: env.signature,
      }),
    ).toBe(ADDRESS)
  })

  it('explains a declined signature and a chain rejection', async () => {
    signedIn()
    let reject = true
    const api = claimApi({
      'POST /api/v1/chain/txs': () => json({ message: 'the username ada-l is already taken', code: 'username_taken' }, 400),
    })
    injectWallet(fakeProvider({ eth_signTypedData_v4: () => (reject ? userRejected() : `0x${'11'.repeat(65)}`) }).provider)
    renderScreen(<SettingsScreen />, '/settings?tab=account')
    fireEvent.change(await screen.findByLabelText('New username'), { target: { value: 'ada-l' } })
    const change = await screen.findByRole('button', { name: 'Change username' })
    await waitFor(() => expect((change as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(change)
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe('You declined the request in your wallet. Nothing was signed; you can try again.')
    expect(api.find('POST', '/api/v1/chain/txs')).toHaveLength(0)

    reject = false
    fireEvent.click(change)
    expect((await screen.findByText(/The server said/, {}, SLOW)).textContent).toBe('The server said: the username ada-l is already taken')
    expect(useAuthStore.getState().user?.username).toBe('ada')
  })

  it('refuses to sign with another account than the signed-in one', async () => {
    signedIn()
    claimApi()
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const wallet = fakeProvider({ eth_requestAccounts: () => [other] })
    injectWallet(wallet.provider)
    renderScreen(<SettingsScreen />, '/settings?tab=account')
    fireEvent.change(await screen.findByLabelText('New username'), { target: { value: 'ada-l' } })
    await screen.findByText('ada-l is available.')
    fireEvent.click(screen.getByRole('button', { name: 'Change username' }))
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe(
      `Your wallet is using ${other}, but you are signed in as ${ADDRESS}. Switch accounts in the wallet, then try again.`,
    )
    expect(wallet.calls.map((c) => c.method)).toEqual(['eth_requestAccounts'])
  })
})

describe('notifications tab', () => {
  it('loads the preferences and saves them with PUT', async () => {
    signedIn()
    const api = settingsApi({ 'PUT /api/v1/user/notifications/preferences': (req) => req.body })
    renderScreen(<SettingsScreen />, '/settings?tab=notifications')
    const governance = (await screen.findByLabelText('Governance proposals and votes')) as HTMLInputElement
    expect(governance.checked).toBe(false)
    expect((screen.getByLabelText('Mentions of your username') as HTMLInputElement).checked).toBe(true)
    fireEvent.click(governance)
    fireEvent.click(screen.getByLabelText('Also send notifications by email'))
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }))
    expect(await screen.findByText('Preferences saved.')).toBeTruthy()
    const [put] = api.find('PUT', '/api/v1/user/notifications/preferences')
    expect(put.body).toEqual({ email: true, mentions: true, reviews: true, governance: true, rewards: true })
    expect(put.headers.get('X-CSRF-Token')).toBe('csrf-s')
  })
})

describe('security tab', () => {
  it('sets up 2FA: a QR code of the otpauth URL, enable with a code, then the recovery codes once', async () => {
    signedIn()
    const codes = Array.from({ length: 10 }, (_, i) => `rc${i}-abcd-efgh`)
    let enabled = false
    const api = settingsApi({
      'GET /api/v1/user/2fa': () => ({ enabled, recoveryCodesLeft: enabled ? 10 : 0 }),
      'POST /api/v1/user/2fa/setup': () => ({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/dForge:ada?secret=JBSWY3DPEHPK3PXP&issuer=dForge' }),
      'POST /api/v1/user/2fa/enable': (req) => {
        if ((req.body as { code: string }).code !== '654321') return json({ message: 'invalid code', code: 'twofactor_invalid_code' }, 400)
        enabled = true
        return { recoveryCodes: codes }
      },
    })
    renderScreen(<SettingsScreen />, '/settings?tab=security')
    expect(await screen.findByText('Two-factor authentication is off.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }))

    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' }, SLOW)
    const { generate } = await import('lean-qr')
    const size = generate('otpauth://totp/dForge:ada?secret=JBSWY3DPEHPK3PXP&issuer=dForge').size
    expect(qr.getAttribute('viewBox')).toBe(`-4 -4 ${size + 8} ${size + 8}`)
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy()

    const code = screen.getByLabelText('Code from the app')
    fireEvent.change(code, { target: { value: '111111' } })
    fireEvent.click(screen.getByRole('button', { name: 'Enable' }))
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not valid. Check it and try again; each code works only once.')
    fireEvent.change(code, { target: { value: '654 321' } })
    fireEvent.click(screen.getByRole('button', { name: 'Enable' }))

    const list = await screen.findByRole('list', { name: 'Your recovery codes' })
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes)
    const download = screen.getByRole('link', { name: 'Download' })
    expect(download.getAttribute('download')).toBe('dforge-recovery-codes.txt')
    expect(decodeURIComponent(download.getAttribute('href')!.split(',')[1])).toBe(codes.join('\n') + '\n')
    expect(api.find('POST', '/api/v1/user/2fa/enable').map((r) => r.body)).toEqual([{ code: '111111' }, { code: '654321' }])

    // Once dismissed, the codes are gone for good.
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }))
    expect(await screen.findByText('Two-factor authentication is on.')).toBeTruthy()
    expect(screen.getByText('10 recovery codes left.')).toBeTruthy()
    expect(screen.queryByText(codes[0])).toBeNull()
  })

  it('disables 2FA with a code', async () => {
    signedIn()
    let enabled = true
    const api = settingsApi({
      'GET /api/v1/user/2fa': () => ({ enabled, recoveryCodesLeft: 1 }),
      'POST /api/v1/user/2fa/disable': () => {
        enabled = false
        return new Response(null, { status: 204 })
      },
    })
    renderScreen(<SettingsScreen />, '/settings?tab=security')
    expect(await screen.findByText('1 recovery code left.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Code from the app, or a recovery code'), { target: { value: '222333' } })
    fireEvent.click(screen.getByRole('button', { name: 'Disable two-factor authentication' }))
    expect(await screen.findByText('Two-factor authentication is off.')).toBeTruthy()
    expect(api.find('POST', '/api/v1/user/2fa/disable')[0].body).toEqual({ code: '222333' })
  })

  it('creates a token, shows it once, lists it and revokes it after a confirmation', async () => {
    signedIn()
    const tokens: { id: number; name: string; token_last_eight: string; scopes: string[]; created_at: string }[] = []
    const api = settingsApi({
      'GET /api/v1/users/ada/tokens': () => tokens,
      'POST /api/v1/users/ada/tokens': (req) => {
        const { name, scopes } = req.body as { name: string; scopes: string[] }
        const token = { id: 7, name, token_last_eight: '9f8e7d6c', scopes, created_at: '2026-11-20T10:00:00Z' }
        tokens.push(token)
        return json({ ...token, sha1: 'a1b2c3d4e5f60718293a4b5c6d7e8f909f8e7d6c' }, 201)
      },
      'DELETE /api/v1/users/ada/tokens/7': () => {
        tokens.length = 0
        return new Response(null, { status: 204 })
      },
    })
    renderScreen(<SettingsScreen />, '/settings?tab=security')
    expect(await screen.findByText('You have no access tokens.')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Generate token' }))
    expect(screen.getByText('Give the token a name.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'laptop git' } })
    fireEvent.change(screen.getByLabelText('Repositories'), { target: { value: 'write' } })
    fireEvent.change(screen.getByLabelText('Issues and pull requests'), { target: { value: 'read' } })
    fireEvent.change(screen.getByLabelText('User account'), { target: { value: 'read' } })
    fireEvent.change(screen.getByLabelText('User account'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Generate token' }))

    expect(await screen.findByRole('heading', { name: 'Token “laptop git” created' })).toBeTruthy()
    expect(screen.getByLabelText('New token').textContent).toBe('a1b2c3d4e5f60718293a4b5c6d7e8f909f8e7d6c')
    expect(screen.getByText('Copy this token now. It is shown only once; dForge keeps only a hash of it.')).toBeTruthy()
    const [created] = api.find('POST', '/api/v1/users/ada/tokens')
    expect(created.body).toEqual({ name: 'laptop git', scopes: ['write:repository', 'read:issue'] })
    const list = await screen.findByRole('list', { name: 'Your tokens' })
    expect(within(list).getByText('laptop git')).toBeTruthy()
    expect(within(list).getByText('…9f8e7d6c')).toBeTruthy()
    expect(within(list).getByText(/Scopes: write:repository, read:issue/)).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(screen.queryByText('a1b2c3d4e5f60718293a4b5c6d7e8f909f8e7d6c')).toBeNull()

    fireEvent.click(within(list).getByRole('button', { name: 'Revoke laptop git' }))
    const confirm = within(list).getByRole('group', { name: 'Confirm revoking laptop git' })
    expect(confirm.textContent).toContain('Revoke “laptop git”? Tools that use it stop working at once.')
    expect(api.find('DELETE', '/api/v1/users/ada/tokens/7')).toHaveLength(0)
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revoke token' }))
    expect(await screen.findByText('You have no access tokens.')).toBeTruthy()
    expect(api.find('DELETE', '/api/v1/users/ada/tokens/7')[0].headers.get('X-CSRF-Token')).toBe('csrf-s')
  })

  it('lists sessions with the current one marked and revokes another', async () => {
    signedIn()
    const sessions = [
      { id: 's1', current: true, createdAt: '2026-11-20T10:00:00Z', lastSeenAt: '2026-11-20T11:00:00Z', userAgent: 'Firefox on Linux', ip: '10.0.0.1' },
      { id: 's2', current: false, createdAt: '2026-11-18T10:00:00Z', lastSeenAt: '2026-11-19T11:00:00Z', userAgent: 'Chrome on Android', ip: '10.0.0.2' },
    ]
    const api = settingsApi({
      'GET /api/v1/user/sessions': () => sessions,
      'DELETE /api/v1/user/sessions/s2': () => {
        sessions.pop()
        return new Response(null, { status: 204 })
      },
    })
    renderScreen(<SettingsScreen />, '/settings?tab=security')
    const list = await screen.findByRole('list', { name: 'Sessions' })
    const [current, other] = within(list).getAllByRole('listitem')
    expect(current.getAttribute('aria-current')).toBe('true')
    expect(within(current).getByText('This browser')).toBeTruthy()
    expect(within(current).queryByRole('button')).toBeNull()
    expect(other.textContent).toContain('IP 10.0.0.2')
    fireEvent.click(within(other).getByRole('button', { name: 'Sign out Chrome on Android' }))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(api.find('DELETE', '/api/v1/user/sessions/s2')).toHaveLength(1)
  })
})

describe('validateProfile', () => {
  const empty = { displayName: '', bio: '', location: '', website: '', email: '' }
  it('checks lengths in characters and the website and email formats', () => {
    expect(validateProfile({ ...empty, displayName: '😀'.repeat(100) })).toEqual({})
    expect(validateProfile({ ...empty, displayName: 'a'.repeat(101) })).toEqual({ displayName: { key: 'tooLong', max: 100 } })
    expect(validateProfile({ ...empty, bio: 'a'.repeat(256) })).toEqual({ bio: { key: 'tooLong', max: 255 } })
    expect(validateProfile({ ...empty, website: 'example.org' })).toEqual({ website: { key: 'website' } })
    expect(validateProfile({ ...empty, website: 'javascript:alert(1)' })).toEqual({ website: { key: 'website' } })
    expect(validateProfile({ ...empty, website: 'http://example.org' })).toEqual({})
    expect(validateProfile({ ...empty, email: 'a@b' })).toEqual({ email: { key: 'email' } })
    expect(validateProfile({ ...empty, email: ' ada@example.org ' })).toEqual({})
  })
})
