// The fixed header's layout: one row on a desktop, a menu button with a
// drawer on a phone, and on every route of the route table the header never
// covers the page's first heading (bounding boxes), signed in and out, at
// 1280 and 390 px, in both themes.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { apiAs, expectHidden, expectVisible, openPage, routeTable, useNodeAndBrowser, waitDelegated, waitFor, waitForShell } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const env = useNodeAndBrowser()

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }
// One row of the header: 4rem plus its border. Two rows measured 99 px.
const ONE_ROW = 66
// The route walk visits about 95 pages per case, three tabs at a time.
const WALK = { timeout: 420_000 }

const header = (page) => page.locator('header')

/** Signs a fresh wallet in on page and returns its username. */
async function signIn(page) {
  const wallet = headlessWallet(generatePrivateKey())
  await wallet.install(page)
  await page.goto('/about')
  await waitForShell(page)
  await header(page).getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectHidden(page.getByRole('dialog'))
  return `user-${wallet.address.slice(2, 22).toLowerCase()}`
}

/** Every route as a concrete path; repository routes point at repo when given. */
function concretePaths(repo) {
  const paths = routeTable().map((r) => {
    let p = r.path
    if (repo) p = p.replace('/:owner/:repo', `/${repo}`).replace(':number', '1').replace(':sha', 'main')
    return p.replace(/:[^/]+/g, '1').replace(/\*/g, 'README.md')
  })
  return [...new Set(paths)]
}

/**
 * The header's bottom edge and the top of the page's first heading in main,
 * once the screen has rendered; a page without a heading (an item that is
 * not there) gives its first line of content instead.
 */
async function measure(page) {
  await expectHidden(page.getByText('Loading...', { exact: true }), 20_000)
  const read = (headingOnly) =>
    page.evaluate((only) => {
      const shown = (el) => el.getClientRects().length > 0
      const main = document.querySelector('main')
      const first = [...main.querySelectorAll('h1, h2')].find(shown) ?? (only ? null : [...main.querySelectorAll('p, a, div[role]')].find(shown))
      if (!first) return null
      return { header: document.querySelector('header').getBoundingClientRect().bottom, heading: first.getBoundingClientRect().top, text: first.textContent.trim().slice(0, 40) }
    }, headingOnly)
  return waitFor(() => read(true), { timeout: 4_000, message: 'a heading in main' }).catch(() => waitFor(() => read(false), { message: 'content in main' }))
}

/** Loads each path in three tabs of context and lists every page whose heading the header covers. */
async function walk(context, paths) {
  const queue = [...paths]
  const problems = []
  const tabs = [await context.newPage(), await context.newPage(), await context.newPage()]
  await Promise.all(
    tabs.map(async (tab) => {
      for (let path = queue.shift(); path; path = queue.shift()) {
        await tab.goto(path)
        await waitForShell(tab)
        const m = await measure(tab).catch((err) => ({ error: err.message }))
        if (m.error) problems.push(`${path}: ${m.error}`)
        else if (m.heading < m.header) problems.push(`${path}: header ends at ${m.header}px, over "${m.text}" at ${m.heading}px`)
      }
      await tab.close()
    }),
  )
  return problems
}

describe('header layout', () => {
  test('on a desktop the signed-in header is one row, in English and in German', WALK, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { viewport: DESKTOP })
    await signIn(page)
    for (const lang of ['en', 'de']) {
      await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lang)
      await page.goto('/governance')
      await waitForShell(page)
      await expectVisible(header(page).getByRole('button', { name: 'Logout' }).or(header(page).getByRole('button', { name: 'Abmelden' })))
      const box = await header(page).boundingBox()
      assert.ok(box.height <= ONE_ROW, `${lang}: the header is ${box.height}px tall, more than one row`)
      assert.equal(await header(page).getByRole('button', { name: /Menu|Menü/ }).isVisible(), false, `${lang}: no menu button on a desktop`)
    }
  })

  test('on a phone the navigation, language, theme and account are in a drawer behind the menu button', WALK, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { viewport: PHONE })
    const name = await signIn(page)
    await page.goto('/explore')
    await waitForShell(page)
    const box = await header(page).boundingBox()
    assert.ok(box.height <= ONE_ROW, `the phone header is ${box.height}px tall`)
    const nav = header(page).getByRole('navigation')
    assert.equal(await nav.isVisible(), false, 'the navigation is folded away')

    const menu = header(page).getByRole('button', { name: 'Menu' })
    await menu.click()
    assert.equal(await menu.getAttribute('aria-expanded'), 'true')
    await expectVisible(nav.getByRole('link', { name: 'Governance', exact: true }))
    await expectVisible(header(page).getByRole('combobox', { name: 'Language' }))
    await expectVisible(header(page).getByRole('link', { name, exact: true }))
    await expectVisible(header(page).getByRole('link', { name: 'Settings', exact: true }))
    await expectVisible(header(page).getByRole('button', { name: 'Logout', exact: true }))

    // The theme toggle in the drawer works, and Escape folds the drawer.
    const dark = await page.evaluate(() => document.documentElement.className)
    await header(page).getByRole('button', { name: 'Toggle theme' }).click()
    await waitFor(() => page.evaluate((before) => document.documentElement.className !== before, dark), { message: 'the theme to change' })
    await page.keyboard.press('Escape')
    await expectHidden(nav)

    // A navigation item is a real link: a full page load to its path.
    await menu.click()
    await nav.getByRole('link', { name: 'Governance', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/governance')
    await waitForShell(page)
    assert.equal(await header(page).getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded'), 'false')
  })

  test('the music button covers no text at the end of a page, nor the content column on a wide screen', WALK, async (t) => {
    for (const viewport of [DESKTOP, PHONE, { width: 1600, height: 900 }]) {
      const { page } = await openPage(t, env.browser, env.node.url, { viewport })
      await page.goto('/about')
      await waitForShell(page)
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
      const overlaps = await page.evaluate(() => {
        const button = document.querySelector('.music-button').getBoundingClientRect()
        const hit = (r) => r.width > 0 && r.left < button.right && r.right > button.left && r.top < button.bottom && r.bottom > button.top
        const texts = [...document.querySelectorAll('footer p, footer a, footer li, main p, main a')].filter((el) => hit(el.getBoundingClientRect()))
        return texts.map((el) => el.textContent.trim().slice(0, 30))
      })
      assert.deepEqual(overlaps, [], `at ${viewport.width} px the music button covers text`)
      if (viewport.width >= 1600) {
        const [button, main] = await Promise.all([page.locator('.music-button').boundingBox(), page.locator('main').boundingBox()])
        assert.ok(button.x >= main.x + main.width, 'on a wide screen the button sits beside the content column')
      }
    }
  })

  for (const [label, viewport, theme] of [
    ['1280 px, light', DESKTOP, 'light'],
    ['390 px, dark', PHONE, 'dark-warm'],
  ]) {
    test(`signed out, ${label}: the header covers no route's first heading`, WALK, async (t) => {
      const { context } = await openPage(t, env.browser, env.node.url, { viewport })
      await useTheme(context, theme)
      assert.deepEqual(await walk(context, concretePaths()), [])
    })
  }

  for (const [label, viewport, theme] of [
    ['1280 px, dark', DESKTOP, 'dark-warm'],
    ['390 px, light', PHONE, 'light'],
  ]) {
    test(`signed in, ${label}: the header covers no route's first heading, a repository's included`, WALK, async (t) => {
      const { context, page } = await openPage(t, env.browser, env.node.url, { viewport })
      await useTheme(context, theme)
      const name = await signIn(page)
      const repo = `layout-${viewport.width}`
      await apiAs(page, 'POST', '/user/repos', { name: repo, auto_init: true }, 201)
      await apiAs(page, 'POST', `/repos/${name}/${repo}/issues`, { title: 'A first issue' }, 201)
      assert.deepEqual(await walk(context, concretePaths(`${name}/${repo}`)), [])
    })
  }
})

/** useTheme makes every page of context open in theme, as the toggle would have stored it. */
async function useTheme(context, theme) {
  await context.addInitScript((name) => localStorage.setItem('theme-storage', JSON.stringify({ state: { theme: name }, version: 0 })), theme)
}
