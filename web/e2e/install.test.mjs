// The install prompt card, driven by a synthetic beforeinstallprompt event
// and Playwright's fake clock.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectHidden, expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()
const DAY = 24 * 60 * 60 * 1000
const KEY = 'pwa-install-dismissed'

/**
 * A page with the fake clock installed before the app loads. Service workers
 * are blocked (the harness default), so the browser never fires a real
 * beforeinstallprompt.
 */
async function installPage(t, { standalone = false } = {}) {
  const opened = await openPage(t, env.browser, env.node.url)
  const { page } = opened
  if (standalone) {
    await page.addInitScript(() => {
      const real = window.matchMedia.bind(window)
      window.matchMedia = (query) => {
        if (!/display-mode:\s*standalone/.test(query)) return real(query)
        return {
          matches: true,
          media: query,
          onchange: null,
          addEventListener() {},
          removeEventListener() {},
          addListener() {},
          removeListener() {},
          dispatchEvent: () => false,
        }
      }
    })
  }
  await page.clock.install()
  await page.goto('/')
  await waitForShell(page)
  return opened
}

/** Dispatches a synthetic beforeinstallprompt; returns whether the app called preventDefault. */
function fireInstallable(page) {
  return page.evaluate(() => {
    window.__promptCalls ??= 0
    const e = new Event('beforeinstallprompt', { cancelable: true })
    e.prompt = () => {
      window.__promptCalls++
      return Promise.resolve()
    }
    e.userChoice = Promise.resolve({ outcome: 'accepted', platform: 'web' })
    window.dispatchEvent(e)
    return e.defaultPrevented
  })
}

const card = (page) => page.getByRole('dialog', { name: 'Install the app' })

async function expectCardShown(page) {
  await expectVisible(card(page))
  await expectVisible(page.getByRole('heading', { name: 'Install the app' }))
  await expectVisible(card(page).getByRole('button', { name: 'Install', exact: true }))
  await expectVisible(card(page).getByRole('button', { name: 'Not now', exact: true }))
  await expectVisible(card(page).getByRole('button', { name: 'Close', exact: true }))
}

/**
 * Resolves once React has rendered what the timers fired so far set off. The
 * fake clock runs due timers inside runFor; a state update in one makes React
 * post its render as a MessageChannel task (the clock does not fake those), and
 * the page runs posted messages in order, so a message posted now arrives after
 * that render. Twice, in case React split its work in two.
 */
async function renderedDueWork(page) {
  for (let i = 0; i < 2; i++) {
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const channel = new MessageChannel()
          channel.port1.onmessage = () => resolve()
          channel.port2.postMessage(null)
        }),
    )
  }
}

async function expectNoCard(page) {
  await renderedDueWork(page)
  assert.equal(await page.getByText('Install the app').count(), 0, 'the install card is not shown')
}

function setDismissedDaysAgo(page, days) {
  return page.evaluate(([key, ms]) => localStorage.setItem(key, String(Date.now() - ms)), [KEY, days * DAY])
}

describe('install prompt', () => {
  test('the card appears 30 s after beforeinstallprompt, not at 29 s', TIMEOUT, async (t) => {
    const { page } = await installPage(t)
    assert.equal(await fireInstallable(page), true, 'the app calls preventDefault on the event')
    await page.clock.runFor(29_000)
    await expectNoCard(page)
    await page.clock.runFor(1_500)
    await expectCardShown(page)
  })

  test('Not now hides the card and stores the dismissal time', TIMEOUT, async (t) => {
    const { page } = await installPage(t)
    await fireInstallable(page)
    await page.clock.runFor(30_500)
    await expectCardShown(page)
    const before = await page.evaluate(() => Date.now())
    await card(page).getByRole('button', { name: 'Not now', exact: true }).click()
    await expectHidden(card(page))
    const stored = Number(await page.evaluate((key) => localStorage.getItem(key), KEY))
    const after = await page.evaluate(() => Date.now())
    assert.ok(stored >= before && stored <= after, `pwa-install-dismissed holds the dismissal time (${stored})`)

    // Within the 7 days a new event shows nothing, even after a long wait.
    await fireInstallable(page)
    await page.clock.runFor(60_000)
    await expectNoCard(page)
    assert.equal(await page.evaluate(() => window.__promptCalls), 0, 'the browser prompt was never opened')
  })

  test('the close button dismisses the card like Not now', TIMEOUT, async (t) => {
    const { page } = await installPage(t)
    await fireInstallable(page)
    await page.clock.runFor(30_500)
    await expectCardShown(page)
    await card(page).getByRole('button', { name: 'Close', exact: true }).click()
    await expectHidden(card(page))
    assert.ok(Number(await page.evaluate((key) => localStorage.getItem(key), KEY)) > 0, 'the dismissal is stored')
  })

  test('a dismissal under 7 days old keeps the card hidden; one 8 days old does not', TIMEOUT, async (t) => {
    const { page } = await installPage(t)
    await setDismissedDaysAgo(page, 6.9)
    await fireInstallable(page)
    await page.clock.runFor(31_000)
    await expectNoCard(page)

    await setDismissedDaysAgo(page, 8)
    await fireInstallable(page)
    await page.clock.runFor(29_000)
    await expectNoCard(page)
    await page.clock.runFor(1_500)
    await expectCardShown(page)
  })

  test('Install opens the browser prompt and hides the card', TIMEOUT, async (t) => {
    const { page } = await installPage(t)
    await fireInstallable(page)
    await page.clock.runFor(30_500)
    await expectCardShown(page)
    assert.equal(await page.evaluate(() => window.__promptCalls), 0)
    await card(page).getByRole('button', { name: 'Install', exact: true }).click()
    await expectHidden(card(page))
    assert.equal(await page.evaluate(() => window.__promptCalls), 1, 'prompt() was called once')
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), KEY), null, 'installing is not a dismissal')
  })

  test('when the app already runs standalone nothing is shown', TIMEOUT, async (t) => {
    const { page } = await installPage(t, { standalone: true })
    assert.equal(await page.evaluate(() => matchMedia('(display-mode: standalone)').matches), true)
    await fireInstallable(page)
    await page.clock.runFor(60_000)
    await expectNoCard(page)
  })
})
