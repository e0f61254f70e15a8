// Accessibility: axe-core on every route of the route table, signed in, in
// the default (dark-warm) and the light theme, against real data (a
// repository with an issue, a pull request and a milestone, an
// organization, a proposal). Serious and critical violations must be zero.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectVisible, openPage, routeTable, useNodeAndBrowser, waitFor, waitForShell } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const KEY = generatePrivateKey()
const env = useNodeAndBrowser({
  alloc: { [privateKeyToAccount(KEY).address]: 1_000_000_000n },
  params: { proposalDeposit: 10_000_000, minProposerStake: 100_000_000 },
  emptyBlocks: '300ms',
})
const THEMES = ['dark-warm', 'light']


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
  const milestone = await api(page, 'POST', `${base}/milestones`, { title: 'v1.0' }, 201)
  const branch = await api(page, 'GET', `${base}/branches/${repo.default_branch}`)
  const org = `axe-org-${login.slice(5, 11)}`
  await api(page, 'POST', '/orgs', { username: org }, 201)
  const posts = await api(page, 'GET', '/blog')
  return { login, repo, issue, pull, milestone, sha: branch.commit.id, org, post: (posts.items ?? posts)[0].slug }
}

/** A concrete path for each route of the table, with the sample data's ids. */
function concretePaths(d) {
  const repoPath = `/${d.login}/axe-walk`
  const fill = (path) =>
    path
      .replace(/^\/:owner\/:repo/, repoPath)
      .replace(/^\/governance\/:id$/, '/governance/1')
      .replace(/^\/repository\/:id$/, `/repository/${d.repo.id}`)
      .replace(/^\/issue\/:id$/, `/issue/${d.issue.id}`)
      .replace(/^\/pr\/:id$/, `/pr/${d.pull.id}`)
      .replace(/^\/user\/:id$/, `/user/${d.login}`)
      .replace(/^\/blog\/:id$/, `/blog/${d.post}`)
      .replace(/^\/org\/:name$/, `/org/${d.org}`)
      .replace(/^\/forum\/topic\/:id$/, '/forum/topic/welcome')
      .replace(/\/issues\/:number$/, `/issues/${d.issue.number}`)
      .replace(/\/pulls\/:number$/, `/pulls/${d.pull.number}`)
      .replace(/\/milestones\/:id$/, `/milestones/${d.milestone.id}`)
      .replace(/\/commit\/:sha$/, `/commit/${d.sha}`)
      .replace(/\/_new\/\*$/, '/_new/docs')
      .replace(/^\/docs\/\*$/, '/docs/getting-started')
      .replace(/^\/help\/\*$/, '/help/getting-started')
      .replace(/\/\*$/, '/README.md')
  const paths = routeTable().map((r) => fill(r.path))
  const left = paths.filter((p) => p.includes(':'))
  assert.deepEqual(left, [], 'every route parameter has a sample value')
  return [...new Set(paths)]
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

describe('accessibility', () => {
  test('every route, signed in, in the dark-warm and the light theme, has no serious or critical axe violation', { timeout: 300_000 }, async (t) => {
    const { context, page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1280, height: 900 } })
    const data = await sampleData(page)
    const paths = concretePaths(data)
    const problems = []
    for (const [i, theme] of THEMES.entries()) {
      // The first theme gets every rule; the other only the colour ones.
      const only = i === 0 ? undefined : ['color-contrast', 'link-in-text-block']
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
