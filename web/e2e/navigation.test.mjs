// Header navigation: full page loads, the active item, layout, and chunk
// preloading on hover and focus.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectEventually, expectVisible, openPage, useNodeAndBrowser, waitFor, waitForShell, watchScripts, TIMEOUT } from './harness.mjs'

const NAV = [
  ['Home', '/home'],
  ['About', '/about'],
  ['Explore', '/explore'],
  ['Governance', '/governance'],
  ['Rewards', '/rewards'],
]

const env = useNodeAndBrowser()

function nav(page) {
  return page.locator('header').getByRole('navigation')
}

/** The names of the nav buttons marked aria-current="page". */
async function currentItems(page) {
  return nav(page).locator('[aria-current="page"]').allInnerTexts()
}

describe('navigation', () => {
  test('each nav link does a full page load to /{page} and becomes the active item', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await page.goto('/')
    await waitForShell(page)
    for (const [name, path] of NAV) {
      await page.evaluate(() => {
        window.__marker = 1
      })
      await nav(page).getByRole('link', { name, exact: true }).click()
      await page.waitForURL((u) => u.pathname === path)
      await waitForShell(page)
      // A new document: the marker set on the previous one is gone.
      assert.equal(await page.evaluate(() => window.__marker), undefined, `clicking ${name} must load a new document`)
      await expectEventually(() => currentItems(page), [name], { message: `${name} to be the only active nav item` })
    }
  })

  test('the active item follows the first path segment and / gives Home', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    const cases = [
      ['/', ['Home']],
      ['/home', ['Home']],
      ['/about', ['About']],
      ['/explore?q=x', ['Explore']],
      ['/governance', ['Governance']],
      ['/rewards', ['Rewards']],
      ['/help/faq', []],
      ['/repository/1', []],
    ]
    for (const [path, want] of cases) {
      await page.goto(path)
      await waitForShell(page)
      await expectEventually(() => currentItems(page), want, { message: `active nav items on ${path}` })
      const active = await nav(page).locator('.active').allInnerTexts()
      assert.deepEqual(active, want, `highlighted nav items on ${path}`)
    }
  })

  test('the header is fixed and the content is at most 1280px wide', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1600, height: 900 } })
    await page.goto('/about')
    await waitForShell(page)
    await expectVisible(page.locator('main h1'))
    const header = page.locator('header').first()
    assert.equal(await header.evaluate((el) => getComputedStyle(el).position), 'fixed')
    const before = await header.boundingBox()
    await page.mouse.move(400, 400)
    await waitFor(async () => {
      await page.mouse.wheel(0, 600)
      return page.evaluate(() => window.scrollY > 0)
    }, { message: 'the page to scroll' })
    const afterScroll = await header.boundingBox()
    assert.equal(afterScroll.y, before.y, 'the header stays at the top while the page scrolls')
    assert.ok(await header.isVisible())

    for (const selector of ['main', 'header .container', 'footer .container']) {
      const el = page.locator(selector).first()
      assert.equal(await el.evaluate((e) => getComputedStyle(e).maxWidth), '1280px', `${selector} max-width`)
      const box = await el.boundingBox()
      assert.ok(box.width <= 1280, `${selector} is ${box.width}px wide on a 1600px window`)
      assert.ok(Math.abs(box.x + box.width / 2 - 800) <= 1, `${selector} is centred`)
    }
  })

  test('hovering or focusing a nav link requests its screen chunk before any click', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    const scripts = watchScripts(page)
    await page.goto('/')
    await waitForShell(page)
    await page.waitForLoadState('networkidle')
    assert.ok(!scripts.some((s) => /\/InfoScreen-[^/]+\.js$/.test(s)), 'the About chunk is not loaded on the home page')
    const start = scripts.length
    await nav(page).getByRole('link', { name: 'About', exact: true }).hover()
    await waitFor(() => scripts.slice(start).some((s) => /\/InfoScreen-[^/]+\.js$/.test(s)), {
      message: 'a request for the About screen chunk (InfoScreen-*.js) after hovering About',
    })
    assert.equal(new URL(page.url()).pathname, '/', 'hovering does not navigate')

    // Keyboard users get the same: focusing Governance preloads its chunk.
    assert.ok(!scripts.some((s) => /\/GovernanceScreen-[^/]+\.js$/.test(s)))
    await nav(page).getByRole('link', { name: 'Governance', exact: true }).focus()
    await waitFor(() => scripts.some((s) => /\/GovernanceScreen-[^/]+\.js$/.test(s)), {
      message: 'a request for GovernanceScreen-*.js after focusing Governance',
    })
  })

  test('hovering a footer link requests its screen chunk before any click', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    const scripts = watchScripts(page)
    await page.goto('/')
    await waitForShell(page)
    await page.waitForLoadState('networkidle')
    const footer = page.locator('footer')
    const link = footer.getByRole('link', { name: 'Leaderboard', exact: true })
    await link.scrollIntoViewIfNeeded()
    assert.ok(!scripts.some((s) => /\/LeaderboardScreen-[^/]+\.js$/.test(s)))
    await link.hover()
    await waitFor(() => scripts.some((s) => /\/LeaderboardScreen-[^/]+\.js$/.test(s)), {
      message: 'a request for LeaderboardScreen-*.js after hovering the footer link',
    })
    assert.equal(new URL(page.url()).pathname, '/')
    assert.equal(await link.getAttribute('href'), '/leaderboard')

    await expectVisible(footer.getByRole('link', { name: 'Status', exact: true }))
    await footer.getByRole('link', { name: 'Status', exact: true }).focus()
    await waitFor(() => scripts.some((s) => /\/StatusScreen-[^/]+\.js$/.test(s)), {
      message: 'a request for StatusScreen-*.js after focusing the footer link',
    })
  })
})
