// A repository's home as a reader uses it in the first minute, against the
// real node and git: the newest commit over the files, then "t", a few
// letters of a file's name and Enter to open it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const env = useNodeAndBrowser()
const defaultName = (address) => `user-${address.slice(2, 22).toLowerCase()}`

/** A browser context signed in with a fresh wallet; returns the page and login. */
async function signedIn(t) {
  const { page } = await openPage(t, env.browser, env.node.url)
  const wallet = headlessWallet(generatePrivateKey())
  await wallet.install(page)
  await page.goto('/explore')
  await waitForShell(page)
  await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  const login = defaultName(wallet.address)
  await expectVisible(page.locator('header').getByRole('link', { name: login, exact: true }))
  return { page, login }
}

/** Calls the API from the page's session (cookie + CSRF); returns { status, body }. */
function api(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = JSON.parse(localStorage.getItem('auth-storage')).state.csrfToken
      const res = await fetch(`/api/v1${path}`, { method, headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify(body) })
      return { status: res.status, text: await res.text() }
    },
    { method, path, body },
  )
}

const b64 = (s) => Buffer.from(s).toString('base64')

describe('repository home', () => {
  test('the latest commit shows over the files, and t, a few letters and Enter open a file', TIMEOUT, async (t) => {
    const { page, login } = await signedIn(t)
    const created = await api(page, 'POST', '/user/repos', { name: 'mill', auto_init: true })
    assert.equal(created.status, 201, created.text)
    const files = ['internal/mill/divide.go', 'internal/mill/multiply.go', 'cmd/engine/main.go'].map((path) => ({ operation: 'create', path, content: b64(`// ${path}\npackage mill\n`) }))
    const committed = await api(page, 'POST', `/repos/${login}/mill/contents`, { branch: 'main', message: 'Add the mill', files })
    assert.equal(committed.status, 201, committed.text)

    await page.goto(`/${login}/mill`)
    await waitForShell(page)
    const bar = page.getByRole('region', { name: 'Latest commit' })
    await expectVisible(bar.getByRole('link', { name: 'Add the mill' }))
    await expectVisible(bar.getByRole('link', { name: '2 commits' }))

    await page.locator('body').press('t')
    const dialog = page.getByRole('dialog', { name: 'Go to file' })
    await expectVisible(dialog)
    await page.keyboard.type('mdiv')
    await expectVisible(dialog.getByRole('option', { name: 'internal/mill/divide.go', selected: true }))
    await page.keyboard.press('Enter')
    await page.waitForURL((u) => u.pathname === `/${login}/mill/src/internal/mill/divide.go`)
    await waitForShell(page)
    await expectVisible(page.getByText('// internal/mill/divide.go'))
  })
})
