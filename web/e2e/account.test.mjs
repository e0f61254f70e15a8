// The header's account area against the real node: Login opens the wallet
// chooser; a wallet injected into the page (EIP-1193 and EIP-6963, backed by
// a real private key held by this test) signs in with SIWE; the header then
// shows the username, Settings and Logout; Logout ends the server session.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { apiAs, expectHidden, expectVisible, expectEventually, openPage, useNodeAndBrowser, waitFor, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const env = useNodeAndBrowser()

const header = (page) => page.locator('header')
const dialog = (page) => page.getByRole('dialog', { name: 'Sign in with your wallet' })

/** A page with a fresh headless wallet installed (see wallet.mjs). */
async function pageWithWallet(t) {
  const opened = await openPage(t, env.browser, env.node.url)
  const wallet = headlessWallet(generatePrivateKey())
  await wallet.install(opened.page)
  return { ...opened, account: wallet, asked: wallet.requests }
}

/** The name a fresh account has before it claims one (names.Default). */
const defaultName = (address) => `user-${address.slice(2, 22).toLowerCase()}`

async function signIn(page, account) {
  await page.goto('/about')
  await waitForShell(page)
  await header(page).getByRole('button', { name: 'Login', exact: true }).click()
  await dialog(page).getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectHidden(dialog(page))
  await expectVisible(header(page).getByRole('link', { name: defaultName(account.address), exact: true }))
}

const stored = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? 'null'))

describe('account header', () => {
  test('signed out, Login opens the wallet chooser, which explains wallets when the browser has none', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await page.goto('/about')
    await waitForShell(page)
    const login = header(page).getByRole('button', { name: 'Login', exact: true })
    assert.equal(await header(page).getByRole('button', { name: 'Logout', exact: true }).count(), 0, 'no Logout button')
    assert.equal(await header(page).getByRole('link', { name: 'Settings', exact: true }).count(), 0, 'no Settings link')
    await page.evaluate(() => {
      window.__marker = 1
    })
    await login.click()
    await expectVisible(dialog(page))
    await expectVisible(dialog(page).getByRole('heading', { name: 'No wallet found' }))
    assert.equal(await dialog(page).getByRole('link', { name: /MetaMask/ }).getAttribute('href'), 'https://metamask.io/download/')
    await page.keyboard.press('Escape')
    await expectHidden(dialog(page))
    assert.equal(new URL(page.url()).pathname, '/about', 'Login does not navigate')
    assert.equal(await page.evaluate(() => window.__marker), 1, 'Login does not reload')
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Login', 'focus returns to Login')
  })

  test('signs in with the wallet; the header shows the username, Settings and Logout, also after a reload', TIMEOUT, async (t) => {
    const { page, account, asked } = await pageWithWallet(t)
    await signIn(page, account)
    await expectVisible(header(page).getByRole('link', { name: 'Settings', exact: true }))
    await expectVisible(header(page).getByRole('button', { name: 'Logout', exact: true }))
    assert.equal(await header(page).getByRole('button', { name: 'Login', exact: true }).count(), 0)
    // The SIWE message, then (when the node needs it) the Delegate transaction of the second prompt.
    assert.deepEqual(asked.slice(0, 2).map((r) => r.method), ['eth_requestAccounts', 'personal_sign'])
    assert.deepEqual(
      asked.slice(2).map((r) => (r.method === 'eth_signTypedData_v4' ? JSON.parse(r.params[1]).primaryType : r.method)),
      asked.length > 2 ? ['Delegate'] : [],
    )
    const saved = await stored(page)
    assert.equal(saved.state.user.username, defaultName(account.address))
    assert.equal(saved.state.user.walletAddress, account.address)
    assert.equal(saved.state.isAuthenticated, true)
    assert.ok(saved.state.csrfToken, 'the CSRF token is kept for writes')

    // The session (an HttpOnly cookie) survives a reload, and the server confirms it.
    assert.equal(await page.evaluate(() => document.cookie.includes('dforge_session')), false, 'the session cookie is HttpOnly')
    await page.reload()
    await waitForShell(page)
    await expectVisible(header(page).getByRole('link', { name: defaultName(account.address), exact: true }))
    assert.equal(await page.evaluate(async () => (await fetch('/api/v1/auth/session')).status), 200)
  })

  test('the username goes to /profile and Settings to /settings', TIMEOUT, async (t) => {
    const { page, account } = await pageWithWallet(t)
    await signIn(page, account)
    await header(page).getByRole('link', { name: defaultName(account.address), exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/profile')
    await waitForShell(page)
    await header(page).getByRole('link', { name: 'Settings', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/settings')
    await waitForShell(page)
    await expectVisible(page.getByRole('tab', { name: 'Profile' }))
    await expectVisible(header(page).getByRole('button', { name: 'Logout', exact: true }))
  })

  test('Settings changes the username with a ClaimUsername transaction, and the header follows', TIMEOUT, async (t) => {
    const { page, account, asked } = await pageWithWallet(t)
    await signIn(page, account)
    await page.goto('/settings?tab=account')
    await waitForShell(page)
    const wanted = `e2e-${account.address.slice(2, 8).toLowerCase()}`
    await page.getByLabel('New username').fill(wanted)
    await expectVisible(page.getByText(`${wanted} is available.`))
    await page.getByRole('button', { name: 'Change username' }).click()
    await expectVisible(page.getByText(`Your username is now ${wanted}.`))
    await expectVisible(header(page).getByRole('link', { name: wanted, exact: true }))
    assert.ok(asked.some((r) => r.method === 'eth_signTypedData_v4'), 'the wallet signed typed data')

    // The chain and the session agree after a reload.
    await page.reload()
    await waitForShell(page)
    await expectVisible(header(page).getByRole('link', { name: wanted, exact: true }))
    const onChain = await page.evaluate(async (a) => (await (await fetch(`/api/v1/accounts/${a}`)).json()).username, account.address)
    assert.equal(onChain, wanted)
  })

  test('the first sign-in offers to choose a username; the claim renames the account, Skip is remembered', TIMEOUT, async (t) => {
    const { page, account } = await pageWithWallet(t)
    await signIn(page, account)
    const card = page.getByRole('region', { name: 'Choose your username' })
    await expectVisible(card)
    await card.getByLabel('Username', { exact: true }).fill('no..dots')
    await expectVisible(card.getByText('Start and end with a letter or digit, and put no two of - _ . in a row.'))
    const wanted = `first-${account.address.slice(2, 8).toLowerCase()}`
    await card.getByLabel('Username', { exact: true }).fill(wanted)
    await expectVisible(card.getByText(`${wanted} is available.`))
    await card.getByRole('button', { name: 'Claim username' }).click()
    await expectVisible(header(page).getByRole('link', { name: wanted, exact: true }), 30_000)
    await expectHidden(card)

    // Another account skips: the card stays away after a reload.
    const other = await pageWithWallet(t)
    await signIn(other.page, other.account)
    const otherCard = other.page.getByRole('region', { name: 'Choose your username' })
    await otherCard.getByRole('button', { name: 'Skip' }).click()
    await expectHidden(otherCard)
    await other.page.reload()
    await waitForShell(other.page)
    await expectVisible(header(other.page).getByRole('link', { name: defaultName(other.account.address), exact: true }))
    assert.equal(await otherCard.count(), 0, 'a skipped card does not come back')
  })

  test("a signed-in repository page makes no request that fails (Gitea's star and watch checks answer 404 for no)", TIMEOUT, async (t) => {
    const { page, account, consoleMessages } = await pageWithWallet(t)
    await signIn(page, account)
    const login = defaultName(account.address)
    await apiAs(page, 'POST', '/user/repos', { name: 'quiet', auto_init: true }, 201)
    const failed = []
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`)
    })
    const seen = consoleMessages.length
    await page.goto(`/${login}/quiet`)
    await waitForShell(page)
    // The owner watches by default and has not starred it.
    const unwatch = page.getByRole('button', { name: /^Unwatch/ })
    await expectVisible(unwatch)
    await waitFor(async () => (await unwatch.getAttribute('aria-pressed')) === 'true' && !(await unwatch.isDisabled()), { message: 'the watch button ready' })
    assert.equal(await page.getByRole('button', { name: /^Star/ }).getAttribute('aria-pressed'), 'false')
    await page.getByRole('button', { name: /^Star/ }).click()
    await expectVisible(page.getByRole('button', { name: /^Unstar/ }))
    await page.waitForLoadState('networkidle')
    assert.deepEqual(failed, [], 'no request failed')
    // (Service workers are blocked in these tests, which logs an error of its own.)
    assert.deepEqual(consoleMessages.slice(seen).filter((m) => m.type === 'error' && /Failed to load resource|\b404\b/.test(m.text)), [], 'no failed request in the console')
  })

  test('Logout ends the server session and clears the stored one', TIMEOUT, async (t) => {
    const { page, account } = await pageWithWallet(t)
    await signIn(page, account)
    await header(page).getByRole('button', { name: 'Logout', exact: true }).click()
    await expectVisible(header(page).getByRole('button', { name: 'Login', exact: true }))
    await expectHidden(header(page).getByRole('link', { name: defaultName(account.address), exact: true }))
    await expectHidden(header(page).getByRole('button', { name: 'Logout', exact: true }))
    await expectHidden(header(page).getByRole('link', { name: 'Settings', exact: true }))
    const saved = await stored(page)
    assert.equal(saved.state.user, null)
    assert.equal(saved.state.token, null)
    assert.equal(saved.state.isAuthenticated, false)
    assert.equal(saved.state.csrfToken, undefined)
    assert.equal(await page.evaluate(async () => (await fetch('/api/v1/auth/session')).status), 401)

    // Still signed out after a reload.
    await page.reload()
    await waitForShell(page)
    await expectVisible(header(page).getByRole('button', { name: 'Login', exact: true }))
    assert.equal(await header(page).getByRole('button', { name: 'Logout', exact: true }).count(), 0)
  })

  test('a stored session the server does not know is signed out on load', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    const forged = JSON.stringify({ state: { user: { username: 'ada' }, token: 't', isAuthenticated: true }, version: 0 })
    await page.addInitScript((value) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('auth-storage', value)
        sessionStorage.setItem('seeded', '1')
      }
    }, forged)
    await page.goto('/')
    await waitForShell(page)
    await expectVisible(header(page).getByRole('button', { name: 'Login', exact: true }))
    await expectEventually(async () => (await stored(page)).state.isAuthenticated, false)
  })
})
