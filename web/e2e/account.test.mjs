// The header's account area: signed in (username, Settings, Logout) and
// signed out (a Login button that does nothing yet).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectHidden, expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()
const SIGNED_IN = JSON.stringify({ state: { user: { username: 'ada' }, token: 't', isAuthenticated: true }, version: 0 })

const header = (page) => page.locator('header')

/** A page whose first load finds a signed-in session in storage. */
async function signedInPage(t) {
  const opened = await openPage(t, env.browser, env.node.url)
  await opened.page.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('auth-storage', value)
      sessionStorage.setItem('seeded', '1')
    }
  }, SIGNED_IN)
  await opened.page.goto('/')
  await waitForShell(opened.page)
  return opened
}

describe('account header', () => {
  test('signed out, the header shows only Login, which does nothing yet', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await page.goto('/about')
    await waitForShell(page)
    const login = header(page).getByRole('button', { name: 'Login', exact: true })
    await expectVisible(login)
    for (const name of ['Logout', 'Settings']) {
      assert.equal(await header(page).getByRole('button', { name, exact: true }).count(), 0, `no ${name} button`)
    }
    await page.evaluate(() => {
      window.__marker = 1
    })
    await login.click()
    await page.waitForTimeout(300)
    assert.equal(new URL(page.url()).pathname, '/about', 'Login does not navigate')
    assert.equal(await page.evaluate(() => window.__marker), 1, 'Login does not reload')
    await expectVisible(login)
  })

  test('signed in, the header shows the username, Settings and Logout', TIMEOUT, async (t) => {
    const { page } = await signedInPage(t)
    await expectVisible(header(page).getByRole('button', { name: 'ada', exact: true }))
    await expectVisible(header(page).getByRole('button', { name: 'Settings', exact: true }))
    await expectVisible(header(page).getByRole('button', { name: 'Logout', exact: true }))
    assert.equal(await header(page).getByRole('button', { name: 'Login', exact: true }).count(), 0)

    // The session survives a reload.
    await page.reload()
    await waitForShell(page)
    await expectVisible(header(page).getByRole('button', { name: 'ada', exact: true }))
  })

  test('the username goes to /profile and Settings to /settings', TIMEOUT, async (t) => {
    const { page } = await signedInPage(t)
    await header(page).getByRole('button', { name: 'ada', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/profile')
    await waitForShell(page)
    await header(page).getByRole('button', { name: 'Settings', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/settings')
    await waitForShell(page)
    await expectVisible(header(page).getByRole('button', { name: 'Logout', exact: true }))
  })

  test('Logout returns the header to the Login button and clears the stored session', TIMEOUT, async (t) => {
    const { page } = await signedInPage(t)
    await header(page).getByRole('button', { name: 'Logout', exact: true }).click()
    await expectVisible(header(page).getByRole('button', { name: 'Login', exact: true }))
    await expectHidden(header(page).getByRole('button', { name: 'ada', exact: true }))
    await expectHidden(header(page).getByRole('button', { name: 'Logout', exact: true }))
    await expectHidden(header(page).getByRole('button', { name: 'Settings', exact: true }))
    const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('auth-storage')))
    assert.equal(stored.state.user, null)
    assert.equal(stored.state.token, null)
    assert.equal(stored.state.isAuthenticated, false)

    // Still signed out after a reload.
    await page.reload()
    await waitForShell(page)
    await expectVisible(header(page).getByRole('button', { name: 'Login', exact: true }))
    assert.equal(await header(page).getByRole('button', { name: 'Logout', exact: true }).count(), 0)
  })
})
