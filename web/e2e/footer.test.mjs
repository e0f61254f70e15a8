// The footer: rights notice and powered-by lines naming the real stack.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectVisible, openPage, routeTable, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()

describe('footer', () => {
  test('shows the rights notice and powered-by lines naming CometBFT and IPFS, never Substrate', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await page.goto('/')
    await waitForShell(page)
    const footer = page.getByRole('contentinfo')
    await expectVisible(footer)
    const year = new Date().getFullYear()
    await expectVisible(footer.getByText(new RegExp(`© ${year} dForge.*All rights reserved`)))
    await expectVisible(footer.getByText(/CometBFT/))
    await expectVisible(footer.getByText(/IPFS/))
    const text = await footer.innerText()
    assert.doesNotMatch(text, /substrate/i)
    assert.doesNotMatch(await page.locator('body').innerText(), /substrate/i, 'no page text claims Substrate')
  })

  test('footer links are real pages of the route table', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    await page.goto('/')
    await waitForShell(page)
    const hrefs = await page.getByRole('contentinfo').getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    assert.ok(hrefs.length >= 10, `the footer has ${hrefs.length} links`)
    const paths = new Set(routeTable().map((r) => r.path))
    const unknown = hrefs.filter((h) => h.startsWith('/') && !paths.has(h))
    assert.deepEqual(unknown, [], 'every footer link goes to a route')
  })
})
