// Web vitals: reports reach the node, show on /analytics, go to gtag when
// present, and never to the console.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectVisible, openPage, useNodeAndBrowser, waitFor, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()
const METRICS = ['CLS', 'LCP', 'INP', 'FCP', 'TTFB']
const FIELDS = ['name', 'value', 'rating', 'delta', 'id', 'navigationType', 'timestamp', 'url', 'userAgent']

async function summaries() {
  const res = await fetch(`${env.node.url}/api/v1/analytics/web-vitals`)
  assert.equal(res.status, 200)
  return (await res.json()).metrics
}

describe('web vitals', () => {
  test('loading / and leaving it sends reports the node stores and /analytics shows', TIMEOUT, async (t) => {
    const { page, consoleMessages } = await openPage(t, env.browser, env.node.url)
    const posts = []
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/analytics/web-vitals') posts.push(req)
    })
    await page.goto('/')
    await waitForShell(page)
    await page.waitForLoadState('networkidle')
    // Leaving the page (visibility hidden) flushes the metrics that wait for it.
    await page.goto('/about')
    await waitForShell(page)

    const rows = await waitFor(async () => {
      const m = await summaries()
      return m.some((s) => s.page === '/' && (s.metric === 'TTFB' || s.metric === 'FCP')) && m
    }, { message: 'GET /api/v1/analytics/web-vitals to list TTFB or FCP for /' })
    for (const r of rows) {
      assert.ok(METRICS.includes(r.metric), `known metric ${r.metric}`)
      assert.ok(['good', 'needs-improvement', 'poor'].includes(r.rating))
      assert.ok(r.count >= 1 && Number.isFinite(r.p75))
    }

    // What the page sent: the spec's fields, JSON, keep-alive.
    assert.ok(posts.length >= 2, `the page posted ${posts.length} reports`)
    for (const req of posts) {
      const body = JSON.parse(req.postData())
      assert.deepEqual(Object.keys(body).sort(), [...FIELDS].sort())
      assert.ok(METRICS.includes(body.name))
      assert.equal(typeof body.value, 'number')
      assert.match(req.headers()['content-type'] ?? '', /application\/json/)
    }
    assert.ok(posts.some((r) => new URL(JSON.parse(r.postData()).url).pathname === '/'), 'reports name the page they measured')

    await page.goto('/analytics')
    await waitForShell(page)
    const table = page.locator('main table')
    await expectVisible(table)
    const row = table.getByRole('row').filter({ has: page.getByRole('cell', { name: '/', exact: true }) }).filter({ hasText: /TTFB|FCP/ })
    await expectVisible(row)
    assert.ok((await table.getByRole('columnheader').count()) >= 4, 'the table has its headings')

    // Never to the console: no message carries a metric report.
    const leaks = consoleMessages.filter((m) => /\b(CLS|LCP|INP|FCP|TTFB)\b|"rating"|needs-improvement/.test(m.text))
    assert.deepEqual(leaks, [], 'web-vitals values are not logged to the console')
  })

  test('when window.gtag exists it receives Web Vitals events marked non-interaction', TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url)
    // gtag and the posted reports are recorded in sessionStorage, which
    // survives leaving the page (requests made while unloading are not
    // reliably reported to Playwright).
    await page.addInitScript(() => {
      const record = (key, item) => {
        const all = JSON.parse(sessionStorage.getItem(key) ?? '[]')
        all.push(item)
        sessionStorage.setItem(key, JSON.stringify(all))
      }
      const realFetch = window.fetch
      window.fetch = function (input, init) {
        if (String(input).endsWith('/api/analytics/web-vitals') && init?.body) record('vitals-posts', JSON.parse(init.body))
        return realFetch.call(this, input, init)
      }
      window.gtag = (...args) => record('gtag-events', { page: location.pathname, args })
    })
    const events = async () => JSON.parse((await page.evaluate(() => sessionStorage.getItem('gtag-events'))) ?? '[]')
    await page.goto('/')
    await waitForShell(page)
    await waitFor(async () => {
      const names = (await events()).map((e) => e.args[1])
      return names.includes('TTFB') && names.includes('FCP')
    }, { message: 'gtag events for TTFB and FCP' })
    // A late banner pushes the painted content down: a real layout shift.
    // It is added once the shell has painted (a timer could fire before the
    // first paint on a busy machine, and then nothing would shift).
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const shove = document.createElement('div')
          shove.style.height = '300px'
          document.body.prepend(shove)
          requestAnimationFrame(() => requestAnimationFrame(resolve))
        }),
    )
    // Leaving the page flushes CLS.
    await page.goto('/about')
    await waitForShell(page)
    const all = await waitFor(async () => {
      const e = await events()
      return e.some((x) => x.page === '/' && x.args[1] === 'CLS') && e
    }, { message: 'a gtag event for CLS from /' })
    for (const { args: [command, name, params] } of all) {
      assert.equal(command, 'event')
      assert.ok(METRICS.includes(name), `event name ${name} is a metric`)
      assert.equal(params.event_category, 'Web Vitals')
      assert.equal(params.non_interaction, true)
      assert.ok(Number.isInteger(params.value), `${name} value ${params.value} is rounded`)
      assert.equal(typeof params.event_label, 'string')
    }
    // Values match what was posted: rounded, and CLS multiplied by 1000.
    const posted = JSON.parse(await page.evaluate(() => sessionStorage.getItem('vitals-posts')))
    const cls = all.find((x) => x.page === '/' && x.args[1] === 'CLS').args[2]
    const clsReport = posted.find((b) => b.id === cls.event_label)
    assert.ok(clsReport, 'the CLS event matches a posted report by id')
    assert.ok(clsReport.value > 0, `the layout shift was measured (CLS ${clsReport.value})`)
    assert.equal(cls.value, Math.round(clsReport.value * 1000))
    const ttfb = all.find((x) => x.page === '/' && x.args[1] === 'TTFB').args[2]
    const ttfbReport = posted.find((b) => b.id === ttfb.event_label)
    assert.equal(ttfb.value, Math.round(ttfbReport.value))
  })
})
