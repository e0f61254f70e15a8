// The offline banner: bottom right, only while the browser is offline; and
// saved copies: API reads the service worker kept open offline, with their age.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectHidden, expectVisible, openPage, useNodeAndBrowser, waitForServiceWorker, waitForShell, SW_TIMEOUT, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()

describe('offline banner', () => {
  test('going offline shows the banner at the bottom right and going online hides it', TIMEOUT, async (t) => {
    const viewport = { width: 1280, height: 800 }
    const { context, page } = await openPage(t, env.browser, env.node.url, { viewport })
    await page.goto('/')
    await waitForShell(page)
    const title = page.getByText('You are offline', { exact: true })
    const detail = page.getByText('Some features may not be available', { exact: true })
    assert.equal(await title.count(), 0, 'no banner while online')

    await context.setOffline(true)
    await expectVisible(title)
    await expectVisible(detail)
    const banner = page.getByRole('status').filter({ has: title })
    await expectVisible(banner)
    const box = await banner.boundingBox()
    assert.ok(box.x + box.width / 2 > viewport.width / 2, `the banner is on the right (x=${box.x}, w=${box.width})`)
    assert.ok(viewport.width - (box.x + box.width) <= 48, `the banner hugs the right edge (x=${box.x}, w=${box.width})`)
    assert.ok(box.y + box.height / 2 > viewport.height * 0.6, `the banner is at the bottom (y=${box.y}, h=${box.height})`)
    assert.equal(await banner.evaluate((el) => getComputedStyle(el).position), 'fixed', 'the banner stays put while scrolling')

    await context.setOffline(false)
    await expectHidden(title)
    await expectHidden(detail)

    // And again: the banner follows every change.
    await context.setOffline(true)
    await expectVisible(title)
    await context.setOffline(false)
    await expectHidden(title)
  })
})

describe('saved copies', () => {
  test('a page read online opens offline from its saved copy, which says how old it is', SW_TIMEOUT, async (t) => {
    const { context, page } = await openPage(t, env.browser, env.node.url, { serviceWorkers: 'allow' })
    await page.goto('/about')
    await waitForServiceWorker(page)
    // A public list read while online, kept as a saved copy too.
    await page.goto('/explore')
    await waitForShell(page)
    await expectVisible(page.getByText('No repositories yet', { exact: false }))
    await page.goto('/about')
    await waitForShell(page)
    const heading = page.locator('main h1', { hasText: 'About dForge' })
    await expectVisible(heading)
    // Online, every answer is fresh: no notice.
    assert.equal(await page.locator('.saved-copy-notice').count(), 0, 'no saved-copy notice while the node answers')

    await context.setOffline(true)
    await page.reload()
    await waitForShell(page)
    await expectVisible(heading)
    await expectVisible(page.getByText('Saved copy from', { exact: false }))
    const notice = page.locator('main .saved-copy-notice')
    assert.match(await notice.innerText(), /^Saved copy from (\d+ seconds?|\d+ minutes?) ago: you are offline\.$/)
    assert.equal(await notice.getAttribute('role'), 'status')
    // The page's own text is there, not an error.
    assert.match(await page.locator('main').innerText(), /open-source code forge/)
    assert.equal(await page.getByText('Oops! Something went wrong').count(), 0)

    // The list seen before opens offline as well, with the same notice.
    await page.goto('/explore')
    await waitForShell(page)
    await expectVisible(page.getByText('No repositories yet', { exact: false }))
    await expectVisible(page.locator('main .saved-copy-notice'))
    assert.equal(await page.getByRole('alert').count(), 0, 'no load error on /explore')
  })
})
