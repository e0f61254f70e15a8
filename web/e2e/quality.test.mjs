// Page quality in the browser. Accessibility: axe-core on every route of the
// route table, signed in, in the default (dark-warm) and the light theme,
// against real data (a repository with an issue, a pull request and a
// milestone, an organization, a proposal); serious and critical violations
// must be zero. Layout shift: /analytics keeps its layout while its data
// loads (CLS under 0.1, the "good" threshold).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectVisible, openPage, routeTable, useNodeAndBrowser, waitFor, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const KEY = generatePrivateKey()
const env = useNodeAndBrowser({
  alloc: { [privateKeyToAccount(KEY).address]: 1_000_000_000n },
  params: { proposalDeposit: 10_000_000, minProposerStake: 100_000_000 },
  emptyBlocks: '300ms',
  // The wallet is the node's admin, so /admin shows the console itself.
  serveArgs: ['--admin', privateKeyToAccount(KEY).address],
})
const THEMES = ['dark-warm', 'light']
// Paths that are the same screen with the same data as another route (the
// API reference is large, so axe on it twice costs much): checked once.
const ALIASES = { '/api': '/docs/api', '/home': '/' }


/** Calls the API with the page's session (cookie + CSRF); returns the JSON body, failing on an unexpected status. */
async function api(page, method, path, body, want = 200) {
  const res = await page.evaluate(
    async ({ method, path, body }) => {
      const csrf = JSON.parse(localStorage.getItem('auth-storage')).state.csrfToken
      const r = await fetch(`/api/v1${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: r.status, text: await r.text() }
    },
    { method, path, body },
  )
  assert.equal(res.status, want, `${method} ${path}: ${res.text}`)
  return JSON.parse(res.text)
}

/** Signs in with the funded wallet, stakes, proposes, and makes a repository with an issue, a pull request and a milestone. */
async function sampleData(page) {
  const wallet = headlessWallet(KEY)
  await wallet.install(page)
  await page.goto('/wallet')
  await waitForShell(page)
  await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectVisible(page.getByTestId('account-balance'))
  const login = (await api(page, 'GET', '/user')).login

  await page.getByRole('tab', { name: 'Stake', exact: true }).click()
  await page.getByLabel('Amount in DFG', { exact: true }).fill('200')
  await page.getByRole('button', { name: 'Sign and stake' }).click()
  await expectVisible(page.getByText(/^Committed in block \d+\.$/), 30_000)
  await page.goto('/governance/new')
  await waitForShell(page)
  await page.getByLabel('Title', { exact: true }).fill('Adopt a code of conduct')
  await page.getByRole('textbox', { name: 'Description' }).fill('A short **code of conduct** for every repository.')
  await page.getByRole('button', { name: 'Sign and propose' }).click()
  await page.waitForURL(/\/governance\/1$/, { timeout: 30_000 })

  const repo = await api(page, 'POST', '/user/repos', { name: 'axe-walk', auto_init: true }, 201)
  const base = `/repos/${login}/axe-walk`
  await api(page, 'POST', `${base}/contents/notes.md`, { content: Buffer.from('# Notes\n').toString('base64'), message: 'Add notes', new_branch: 'notes' }, 201)
  const issue = await api(page, 'POST', `${base}/issues`, { title: 'The build is slow' }, 201)
  const pull = await api(page, 'POST', `${base}/pulls`, { title: 'Add notes', head: 'notes', base: repo.default_branch }, 201)
  // Merged, so its page shows the "Merged" badge (a colour the light theme once failed).
  await api(page, 'POST', `${base}/pulls/${pull.number}/merge`, { Do: 'merge' })
  const milestone = await api(page, 'POST', `${base}/milestones`, { title: 'v1.0' }, 201)
  const branch = await api(page, 'GET', `${base}/branches/${repo.default_branch}`)
  const org = `axe-org-${login.slice(5, 11)}`
  await api(page, 'POST', '/orgs', { username: org }, 201)
  const posts = await api(page, 'GET', '/blog')
  // A signed-in contact message is a support ticket, with a page of its own.
  const ticket = await api(page, 'POST', '/contact', { name: 'Axe', email: 'axe@example.org', subject: 'Contrast', message: 'Checking the ticket page.' }, 201)
  // A marketplace listing, installed into the repository.
  const listing = await api(page, 'POST', '/marketplace/listings', { name: 'Axe CI', description: 'Checks every push.', events: ['push'], url_template: 'https://ci.example/{owner}/{repo}', homepage: 'https://ci.example' }, 201)
  await api(page, 'POST', `${base}/marketplace/installs`, { listing: listing.id }, 201)
  return { login, repo, issue, pull, milestone, sha: branch.commit.id, org, post: (posts.items ?? posts)[0].slug, ticket: ticket.id, listing: listing.id }
}

/** A concrete path for each route of the table, with the sample data's ids. */
function concretePaths(d) {
  const repoPath = `/${d.login}/axe-walk`
  const fill = (path) =>
    path
      .replace(/^\/:owner\/:repo/, repoPath)
      .replace(/^\/governance\/:id$/, '/governance/1')
      .replace(/^\/grants\/:id$/, '/grants/1')
      .replace(/^\/repository\/:id$/, `/repository/${d.repo.id}`)
      .replace(/^\/issue\/:id$/, `/issue/${d.issue.id}`)
      .replace(/^\/pr\/:id$/, `/pr/${d.pull.id}`)
      .replace(/^\/user\/:id$/, `/user/${d.login}`)
      .replace(/^\/blog\/:id$/, `/blog/${d.post}`)
      .replace(/^\/org\/:name$/, `/org/${d.org}`)
      .replace(/^\/forum\/topic\/:id$/, '/forum/topic/welcome')
      .replace(/^\/events\/:id$/, '/events/1')
      .replace(/^\/help\/tickets\/:id$/, `/help/tickets/${d.ticket}`)
      .replace(/^\/marketplace\/:id$/, `/marketplace/${d.listing}`)
      // No second account on this node to write to: a conversation that is not there.
      .replace(/^\/messages\/:id$/, '/messages/1')
      .replace(/\/issues\/:number$/, `/issues/${d.issue.number}`)
      .replace(/\/pulls\/:number$/, `/pulls/${d.pull.number}`)
      .replace(/\/milestones\/:id$/, `/milestones/${d.milestone.id}`)
      .replace(/\/commit\/:sha$/, `/commit/${d.sha}`)
      // No workflow in the sample repository: a run that is not there.
      .replace(/\/actions\/runs\/:id$/, '/actions/runs/1')
      .replace(/\/_new\/\*$/, '/_new/docs')
      .replace(/^\/docs\/\*$/, '/docs/getting-started')
      .replace(/^\/help\/\*$/, '/help/getting-started')
      .replace(/\/\*$/, '/README.md')
  const table = routeTable()
  for (const [alias, path] of Object.entries(ALIASES)) {
    const screen = (p) => table.find((r) => r.path === p)?.screen
    assert.ok(screen(alias) && screen(alias) === screen(path), `${alias} is the screen of ${path}`)
  }
  const routes = table.filter((r) => !(r.path in ALIASES)).map((r) => ({ path: fill(r.path), screen: r.screen }))
  const left = routes.filter((r) => r.path.includes(':'))
  assert.deepEqual(left, [], 'every route parameter has a sample value')
  return routes
}

/**
 * axe's serious and critical violations on the page once its data has
 * loaded, one line each; `only` limits the rules (a theme changes colours only).
 */
async function violations(page, only) {
  // Loading states are checked too, but the data's own markup matters most:
  // wait (bounded) for spinners to go.
  await waitFor(async () => (await page.locator('.inline-loading, .fullscreen-loading').count()) === 0, { timeout: 5_000 }).catch(() => {})
  return page.evaluate(async ({ source, only }) => {
    if (!window.axe) (0, eval)(source)
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: only } : {}) })
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`).join(' | ')}`)
  }, { source: AXE, only })
}

/** Sums every layout shift not caused by input, from the first paint on (stricter than web-vitals' session windows). */
async function trackLayoutShift(page) {
  await page.addInitScript(() => {
    window.__cls = 0
    window.__shifts = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.hadRecentInput) continue
        window.__cls += e.value
        window.__shifts.push({ value: e.value, sources: (e.sources ?? []).map((s) => s.node?.className || s.node?.nodeName || '?') })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

describe('layout shift', () => {
  test('/analytics does not move its own layout while its figures load (CLS < 0.1)', TIMEOUT, async (t) => {
    // Measurements for a few pages, so the vitals table has rows, as on a node
    // in use. (This test runs before the walk, whose pages report vitals too,
    // so these stay within the node's per-address quota.)
    for (const [i, name] of ['LCP', 'FCP', 'TTFB', 'CLS'].entries()) {
      for (const path of ['/', '/explore', '/governance']) {
        const res = await fetch(`${env.node.url}/api/analytics/web-vitals`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name, value: name === 'CLS' ? 0.05 : 900 + i, rating: 'good', delta: 1, id: `v5-${i}-${path}`, navigationType: 'navigate', timestamp: Date.now(), url: `${env.node.url}${path}`, userAgent: 'e2e' }),
        })
        assert.equal(res.status, 204)
      }
    }
    const { page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1280, height: 900 } })
    await trackLayoutShift(page)
    // The worst order for the layout: the vitals answer comes after the chain's figures.
    let release
    const held = new Promise((r) => (release = r))
    await page.route('**/api/v1/analytics/web-vitals', async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/analytics')
    await waitForShell(page)
    await expectVisible(page.getByTestId('chain-height'))
    await expectVisible(page.getByTestId('proposals-active'))
    release()
    await waitForShell(page)
    await expectVisible(page.getByTestId('chain-height'))
    await expectVisible(page.getByTestId('proposals-active'))
    await expectVisible(page.getByRole('heading', { name: 'Core Web Vitals' }))
    await waitFor(async () => (await page.locator('[aria-busy="true"], .inline-loading').count()) === 0, { message: 'every figure to load' })
    // Shifts are reported after the frame that made them: let two frames pass.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    const { cls, shifts } = await page.evaluate(() => ({ cls: window.__cls, shifts: window.__shifts }))
    assert.ok(cls < 0.1, `CLS ${cls.toFixed(3)} on /analytics: ${JSON.stringify(shifts)}`)
  })
})

describe('accessibility', () => {
  // About 160 page visits with axe, in three tabs on two cores: ~300 s on a
  // busy machine (the API reference alone takes axe 20-45 s), so the bound
  // is twice that. A hung page still fails it.
  test('every route, signed in, in the dark-warm theme (and each screen in the light one) has no serious or critical axe violation', { timeout: 600_000 }, async (t) => {
    const { context, page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1280, height: 900 } })
    const data = await sampleData(page)
    const routes = concretePaths(data)
    const problems = []
    for (const [i, theme] of THEMES.entries()) {
      // The first theme gets every rule on every route; the other, which
      // changes colours only, the colour rules on one route per screen.
      const only = i === 0 ? undefined : ['color-contrast', 'link-in-text-block']
      const paths = i === 0 ? routes.map((r) => r.path) : [...new Map(routes.map((r) => [r.screen, r.path]).reverse()).values()]
      await page.evaluate((theme) => localStorage.setItem('theme-storage', JSON.stringify({ state: { theme }, version: 0 })), theme)
      const queue = [...paths]
      const walk = async (pg) => {
        for (let path = queue.shift(); path; path = queue.shift()) {
          await pg.goto(path)
          await waitForShell(pg)
          for (const v of await violations(pg, only)) problems.push(`${theme} ${path}: ${v}`)
        }
      }
      // Three tabs share the walk to keep it short.
      const others = [await context.newPage(), await context.newPage()]
      await Promise.all([page, ...others].map(walk))
      for (const o of others) await o.close()
    }
    assert.deepEqual(problems, [], `axe found ${problems.length} serious or critical violations:\n${problems.join('\n')}`)
  })
})
