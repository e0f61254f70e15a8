// The screen error fallback: a screen whose chunk fails to load shows the
// spec's texts; Try Again and Reload Page recover once the chunk loads.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectHidden, expectVisible, fatal, openPage, useNodeAndBrowser, waitFor, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()
const EXPLORE_CHUNK = /\/assets\/ExploreScreen-[^/]+\.js$/

/** A page whose Explore chunk requests fail until the returned unbreak() is called. */
async function brokenExplore(t) {
  const opened = await openPage(t, env.browser, env.node.url)
  const aborted = []
  const handler = (route) => {
    aborted.push(route.request().url())
    return route.abort('failed')
  }
  await opened.page.route(EXPLORE_CHUNK, handler)
  const unbreak = () => opened.page.unroute(EXPLORE_CHUNK, handler)
  return { ...opened, aborted, unbreak }
}

/**
 * Waits for the fallback after a failed load; fails fast if the app retries
 * the chunk endlessly. failures() counts the failed requests so far.
 */
async function expectFallbackAfterFailure(page, failures) {
  const heading = page.locator('main').getByRole('heading', { name: 'Oops! Something went wrong' })
  await waitFor(async () => {
    if (failures() > 5) {
      throw fatal(`the failed chunk was requested ${failures()} times: the app retries it endlessly (spinner forever) instead of showing the fallback`)
    }
    return heading.isVisible()
  }, { message: 'the error fallback' })
  await expectFallback(page)
}

async function expectFallback(page) {
  const main = page.locator('main')
  await expectVisible(main.getByRole('heading', { name: 'Oops! Something went wrong' }))
  await expectVisible(main.getByText("We're sorry for the inconvenience. An unexpected error has occurred.", { exact: true }))
  const persist = main.locator('p', { hasText: 'If the problem persists' })
  await expectVisible(persist)
  assert.equal((await persist.innerText()).trim(), 'If the problem persists, please contact support.')
  const contact = persist.getByRole('link', { name: 'contact support' })
  assert.equal(await contact.getAttribute('href'), '/help/contact')
  await expectVisible(main.getByRole('button', { name: 'Try Again' }))
  await expectVisible(main.getByRole('button', { name: 'Reload Page' }))
}

/** The Explore screen as a visitor sees it. */
async function expectExplore(page) {
  await expectVisible(page.locator('main').getByRole('heading', { level: 1 }))
  await expectVisible(page.getByRole('search'))
  await expectHidden(page.getByText('Oops! Something went wrong'))
}

describe('error fallback', () => {
  test('a screen that fails to load shows the fallback page inside the shell, hiding details', TIMEOUT, async (t) => {
    const { page, aborted, consoleMessages } = await brokenExplore(t)
    await page.goto('/explore')
    await waitForShell(page)
    await expectFallbackAfterFailure(page, () => aborted.length)
    assert.ok(aborted.length >= 1, 'the Explore chunk was requested and failed')
    // The shell around the screen still works.
    await expectVisible(page.locator('header').getByRole('link', { name: 'Explore', exact: true }))
    await expectVisible(page.locator('footer'))
    // Details go to the console, not to the user.
    const text = await page.locator('main').innerText()
    assert.doesNotMatch(text, /TypeError|dynamically imported|ExploreScreen|at /)
    assert.ok(
      consoleMessages.some((m) => m.type === 'error' && !/^Failed to load resource/.test(m.text)),
      'the app logs the error to the console',
    )
  })

  test('Try Again loads the screen for real once the chunk is reachable', TIMEOUT, async (t) => {
    const { page, aborted, unbreak } = await brokenExplore(t)
    await page.goto('/explore')
    await expectFallbackAfterFailure(page, () => aborted.length)
    await page.evaluate(() => {
      window.__marker = 1
    })
    // Still broken: trying again fails again, and says so.
    const attempts = aborted.length
    await page.getByRole('button', { name: 'Try Again' }).click()
    await waitFor(() => aborted.length > attempts, { message: 'Try Again to request the chunk again' })
    await expectFallbackAfterFailure(page, () => aborted.length - attempts)

    await unbreak()
    await page.getByRole('button', { name: 'Try Again' }).click()
    await expectExplore(page)
    assert.equal(await page.evaluate(() => window.__marker), 1, 'Try Again recovers without reloading the page')
  })

  test('Reload Page reloads the document', TIMEOUT, async (t) => {
    const { page, aborted, unbreak } = await brokenExplore(t)
    await page.goto('/explore')
    await expectFallbackAfterFailure(page, () => aborted.length)
    await unbreak()
    await page.evaluate(() => {
      window.__marker = 1
    })
    await page.getByRole('button', { name: 'Reload Page' }).click()
    await waitFor(() => page.evaluate(() => window.__marker === undefined).catch(() => false), { message: 'a new document' })
    assert.equal(new URL(page.url()).pathname, '/explore')
    await waitForShell(page)
    await expectExplore(page)
  })

  test('a rendering error in a screen shows the fallback and Try Again renders the screen again', TIMEOUT, async (t) => {
    const { page, pageErrors, consoleMessages } = await openPage(t, env.browser, env.node.url)
    // The Explore chunk is replaced by a screen that throws until healed.
    await page.route(EXPLORE_CHUNK, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: "export default function Screen() { if (!window.__heal) throw new Error('render boom'); return 'Healed screen' }",
      }),
    )
    await page.goto('/explore')
    await waitForShell(page)
    await expectFallback(page)
    assert.doesNotMatch(await page.locator('main').innerText(), /render boom/, 'the error message is not shown to the user')
    assert.ok(consoleMessages.some((m) => m.type === 'error' && /render boom/.test(m.text)), 'the error is logged to the console')
    await expectVisible(page.locator('header').getByRole('navigation'))

    await page.evaluate(() => {
      window.__heal = true
      window.__marker = 1
    })
    await page.getByRole('button', { name: 'Try Again' }).click()
    await expectVisible(page.locator('main').getByText('Healed screen', { exact: true }))
    await expectHidden(page.getByText('Oops! Something went wrong'))
    assert.equal(await page.evaluate(() => window.__marker), 1, 'Try Again did not reload the page')
    assert.equal(await page.getByText('An error occurred', { exact: true }).count(), 0, 'the top-level fallback is not used')
    assert.ok(pageErrors.every((e) => /render boom/.test(e.message)), 'no other uncaught errors')
  })
})
