// People and repositories for browser tests that need real forge state:
// accounts signed in once with a wallet (their session kept as a storage
// state, so each view is a fresh context of the same person), git over
// HTTP with a token, and the viewports and themes every visual check
// runs in. Not a test file: the *.test.mjs files import it.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { generatePrivateKey } from 'viem/accounts'
import { EXPECT_TIMEOUT, expectHidden, expectVisible, waitDelegated, waitFor, waitForShell } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

/** The two themes the toggle switches between: light and the default dark one. */
export const THEMES = ['light', 'dark-warm']

/** Every visual check: 1280 and 390 px, each in both themes. */
export const VARIANTS = [DESKTOP, PHONE].flatMap((viewport) => THEMES.map((theme) => ({ viewport, theme, label: `${viewport.width} px, ${theme}` })))

/** Username of a wallet that has not claimed one. */
export const defaultName = (address) => `user-${address.slice(2, 22).toLowerCase()}`

/**
 * Signs a fresh wallet in (in a context of its own, closed afterwards) and
 * returns { login, address, state }: state is the session (cookie and local
 * storage) for view(). Call it in `before`. privateKey picks the wallet,
 * for an account given roles or funds when the node starts.
 */
export async function signUp(browser, baseURL, { privateKey = generatePrivateKey() } = {}) {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: DESKTOP })
  context.setDefaultTimeout(EXPECT_TIMEOUT)
  try {
    const page = await context.newPage()
    const wallet = headlessWallet(privateKey)
    await wallet.install(page)
    await page.goto('/about')
    await waitForShell(page)
    await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
    await waitDelegated(page)
    await expectHidden(page.getByRole('dialog'))
    const login = defaultName(wallet.address)
    await expectVisible(page.locator('header').getByRole('link', { name: login, exact: true }))
    return { login, address: wallet.address, state: await context.storageState() }
  } finally {
    await context.close()
  }
}

/**
 * A fresh context for one view: signed in as who (from signUp) or
 * anonymous (null), at variant's viewport and theme; closed when the test
 * ends. Returns { context, page, pageErrors, consoleErrors }.
 */
export async function view(t, browser, baseURL, who, variant = { viewport: DESKTOP, theme: 'light' }) {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: variant.viewport, storageState: who?.state })
  context.setDefaultTimeout(EXPECT_TIMEOUT)
  t.after(() => context.close().catch(() => {}))
  await context.addInitScript((theme) => localStorage.setItem('theme-storage', JSON.stringify({ state: { theme }, version: 0 })), variant.theme)
  const page = await context.newPage()
  const pageErrors = []
  const consoleErrors = []
  page.on('pageerror', (e) => pageErrors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`)
  })
  return { context, page, pageErrors, consoleErrors }
}

/** Loads path and waits for the shell and the theme the view asked for. */
export async function open(page, path, theme) {
  await page.goto(path)
  await waitForShell(page)
  if (theme) {
    const cls = await page.evaluate(() => document.documentElement.className)
    assert.ok(cls.split(/\s+/).includes(theme), `the page is in the ${theme} theme (classes: ${cls})`)
  }
}

/** Calls the API as the page's signed-in user; checks the status and returns the JSON body (null when empty). */
export async function api(page, method, path, body, want) {
  const res = await page.evaluate(
    async ({ method, path, body }) => {
      const csrf = JSON.parse(localStorage.getItem('auth-storage') ?? '{"state":{}}').state.csrfToken
      const r = await fetch(`/api/v1${path}`, {
        method,
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: r.status, text: await r.text() }
    },
    { method, path, body },
  )
  if (want !== undefined) assert.equal(res.status, want, `${method} ${path}: ${res.text}`)
  return res.text ? JSON.parse(res.text) : null
}

/** A page of who's session on the node, for API calls in `before`; close it with the returned close(). */
export async function session(browser, baseURL, who) {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', storageState: who.state })
  context.setDefaultTimeout(EXPECT_TIMEOUT)
  const page = await context.newPage()
  await page.goto('/about')
  await waitForShell(page)
  return { page, close: () => context.close().catch(() => {}) }
}

/** A personal access token with write scope, for git over HTTP. */
export async function writeToken(page, login) {
  const made = await api(page, 'POST', `/users/${login}/tokens`, { name: `e2e-${Date.now()}`, scopes: ['write'] }, 201)
  assert.match(made.sha1, /^[0-9a-f]{40}$/)
  return made.sha1
}

/**
 * Clones owner/repo as who (with a new write token) into dir under work,
 * retrying while a new fork's git data arrives; returns the clone's path.
 */
export async function cloneAs(page, baseURL, work, who, owner, repo, dir) {
  const token = await writeToken(page, who.login)
  const url = remoteURL(baseURL, owner, repo, who.login, token)
  await waitFor(
    () => {
      rmSync(join(work, dir), { recursive: true, force: true })
      git(work, 'clone', '--quiet', url, dir)
      return true
    },
    { timeout: 30_000, interval: 500, message: `git clone of ${owner}/${repo}` },
  )
  return join(work, dir)
}

/** The HTTP clone URL of owner/repo with login and token as credentials. */
export function remoteURL(baseURL, owner, repo, login, token) {
  const u = new URL(`/${owner}/${repo}.git`, baseURL)
  u.username = login
  u.password = token
  return u.href
}

/** Runs git in cwd as a fixed author; returns its output. */
export const git = (cwd, ...args) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'E2E',
      GIT_AUTHOR_EMAIL: 'e2e@example.org',
      GIT_COMMITTER_NAME: 'E2E',
      GIT_COMMITTER_EMAIL: 'e2e@example.org',
    },
  })

/**
 * The WCAG contrast ratio of the element's text against what is painted
 * behind it: its own and its ancestors' backgrounds, composited (any CSS
 * colour syntax, through a canvas).
 */
export function contrast(locator) {
  return locator.first().evaluate((el) => {
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = 1
    const ctx = canvas.getContext('2d', { willReadFrequently: true })
    const rgba = (css) => {
      ctx.clearRect(0, 0, 1, 1)
      ctx.fillStyle = '#000'
      ctx.fillStyle = css
      ctx.fillRect(0, 0, 1, 1)
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data
      return { r, g, b, a: a / 255 }
    }
    const over = (top, below) => ({ r: top.r * top.a + below.r * (1 - top.a), g: top.g * top.a + below.g * (1 - top.a), b: top.b * top.a + below.b * (1 - top.a), a: 1 })
    const chain = []
    for (let n = el; n; n = n.parentElement) chain.push(rgba(getComputedStyle(n).backgroundColor))
    let bg = { r: 255, g: 255, b: 255, a: 1 }
    for (const c of chain.reverse()) bg = over(c, bg)
    const fg = over(rgba(getComputedStyle(el).color), bg)
    const lum = ({ r, g, b }) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
    }
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a)
    return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100
  })
}

/**
 * Asserts that the text of locator is legible (WCAG AA, 4.5:1) where it
 * stands, once its colours have settled: a button that just changed state
 * passes through its background transition (0.15 s), and a reading taken
 * halfway is not what the reader sees.
 */
export async function assertLegible(locator, what) {
  let ratio = await contrast(locator)
  for (let i = 0; i < settleReads && ratio < 4.5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    ratio = await contrast(locator)
  }
  assert.ok(ratio >= 4.5, `${what}: contrast ${ratio}:1 is below 4.5:1`)
}

/** How many more readings, 100 ms apart, assertLegible takes while the contrast is short: twice the longest colour transition. */
const settleReads = 5

/** Asserts the page does not scroll sideways (nothing wider than the viewport). */
export async function assertNoSidewaysScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }))
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px viewport`)
}

/** Asserts the locator's box lies within the viewport's width once scrolled into view. */
export async function assertOnScreen(page, locator, what) {
  await locator.first().scrollIntoViewIfNeeded()
  const box = await locator.first().boundingBox()
  const width = page.viewportSize().width
  assert.ok(box && box.width > 0 && box.x >= 0 && box.x + box.width <= width + 0.5, `${what}: box ${JSON.stringify(box)} is not within ${width}px`)
}
