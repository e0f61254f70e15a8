// The Content-Security-Policy of the app's pages: every route of the table
// loads under it with no violation (an inline script or style, a foreign
// host) and no console error about it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectHidden, openPage, routeTable, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()

describe('content security policy', () => {
  test('every route loads under the policy with no violation', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    const violations = []
    // securitypolicyviolation fires in the page; the console has the rest
    // (a worker's, or one raised before the listener is in place).
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`)
      })
    })
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy|CSP violation/i.test(msg.text())) violations.push(`${page.url()}: ${msg.text()}`)
    })
    const paths = [...new Set(routeTable().map((r) => r.path.replace(/:[^/]+/g, '1').replace(/\*/g, 'x')))]
    for (const path of paths) {
      const res = await page.goto(path)
      assert.match(res.headers()['content-security-policy'] ?? '', /script-src 'self'/, `${path} has no policy`)
      await waitForShell(page)
      await expectHidden(page.getByText('Loading...', { exact: true }))
    }
    assert.deepEqual(violations, [])
  })
})
