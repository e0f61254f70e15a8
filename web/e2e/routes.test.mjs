// The route table: every route answers 200 and renders, unknown paths answer
// 404 with the app's Not Found page, and a slow screen shows the spinner.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectHidden, expectVisible, openPage, routeTable, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()

/** Concrete paths for the route table: ':id' becomes '1' and '*' becomes 'x'. */
function concretePaths() {
  const paths = routeTable().map((r) => r.path.replace(/:[^/]+/g, '1').replace(/\*/g, 'x'))
  return [...new Set(paths)]
}

const FALLBACK_TITLE = 'Oops! Something went wrong'

describe('routes', () => {
  test('the route table is not empty and covers the spec', TIMEOUT, () => {
    const paths = concretePaths()
    for (const p of ['/', '/home', '/about', '/explore', '/governance', '/rewards', '/repository/1', '/help/faq', '/help/contact', '/help/x', '/docs/x', '/api', '/forum/topic/1', '/admin']) {
      assert.ok(paths.includes(p), `routes.json lacks ${p}`)
    }
  })

  test('every route answers HTTP 200 with the app and renders without the error fallback', TIMEOUT, async (t) => {
    const { context, page, pageErrors } = await openPage(t, env.browser, env.node.url)
    const problems = []
    const queue = concretePaths()
    const check = async (pg) => {
      for (let path = queue.shift(); path; path = queue.shift()) {
        const res = await pg.goto(path)
        if (res.status() !== 200) problems.push(`${path}: HTTP ${res.status()}`)
        if (!/text\/html/.test(res.headers()['content-type'] ?? '')) problems.push(`${path}: content-type ${res.headers()['content-type']}`)
        await waitForShell(pg)
        // The screen chunk has loaded once the full-screen spinner is gone.
        await expectHidden(pg.getByText('Loading...', { exact: true }))
        if (await pg.getByText(FALLBACK_TITLE).isVisible()) problems.push(`${path}: shows the error fallback`)
        if (await pg.getByRole('heading', { name: 'Page not found' }).isVisible()) problems.push(`${path}: shows Not Found`)
        if (await pg.getByText('An error occurred', { exact: true }).isVisible()) problems.push(`${path}: the app crashed`)
      }
    }
    // Three tabs share the work to keep the run short.
    const others = [await context.newPage(), await context.newPage()]
    for (const p of others) p.on('pageerror', (e) => pageErrors.push(e))
    await Promise.all([page, ...others].map(check))
    assert.deepEqual(problems, [])
    assert.deepEqual(pageErrors.map((e) => e.message), [], 'no uncaught errors while rendering the routes')
  })

  test('an unknown path answers 404 and shows the app\'s Not Found page', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    for (const path of ['/no-such-page', '/explore/extra', '/repository', '/help-me']) {
      const res = await page.goto(path)
      assert.equal(res.status(), 404, `${path} status`)
      assert.match(res.headers()['content-type'] ?? '', /text\/html/)
      await waitForShell(page)
      await expectVisible(page.getByRole('heading', { name: 'Page not found' }))
      await expectVisible(page.getByText('404', { exact: true }))
      const home = page.getByRole('link', { name: 'Go to the home page' })
      await expectVisible(home)
      assert.equal(await home.getAttribute('href'), '/')
    }
    // The Not Found page offers a way home that works.
    await page.getByRole('link', { name: 'Go to the home page' }).click()
    await page.waitForURL((u) => u.pathname === '/')
    await expectHidden(page.getByRole('heading', { name: 'Page not found' }))
  })

  test('while a screen chunk is slow the full-screen Loading... spinner is shown', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1200, height: 800 } })
    let release
    const gate = new Promise((r) => (release = r))
    let held = 0
    await page.route(/\/assets\/InfoScreen-[^/]+\.js$/, async (route) => {
      held++
      await gate
      await route.continue()
    })
    await page.goto('/about', { waitUntil: 'domcontentloaded' })
    const spinner = page.getByRole('status').filter({ hasText: 'Loading...' })
    await expectVisible(spinner)
    assert.ok(held >= 1, 'the About chunk request is being held')
    const box = await spinner.first().boundingBox()
    assert.deepEqual(
      [Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)],
      [0, 0, 1200, 800],
      'the spinner covers the whole window',
    )
    release()
    await expectHidden(spinner)
    await expectVisible(page.locator('main h1'))
    assert.match(await page.locator('main h1').first().innerText(), /dForge/)
  })
})
