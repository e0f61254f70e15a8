// Bounties in the browser: a signed-in wallet funds an issue from its page
// (signed by the headless wallet, committed on the real chain), /bounties
// lists it, and both pages, the paid tab too, pass axe in both themes.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectVisible, openPage, useNodeAndBrowser, waitFor, waitForShell, waitDelegated, apiAs } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const KEY = generatePrivateKey()
const env = useNodeAndBrowser({ alloc: { [privateKeyToAccount(KEY).address]: 1_000_000_000n }, emptyBlocks: '300ms' })

const api = apiAs

async function violations(page, only) {
  await waitFor(async () => (await page.locator('.inline-loading, .fullscreen-loading').count()) === 0, { timeout: 5_000 }).catch(() => {})
  return page.evaluate(async ({ source, only }) => {
    if (!window.axe) (0, eval)(source)
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: only } : {}) })
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`).join(' | ')}`)
  }, { source: AXE, only })
}

describe('bounties', () => {
  test('a wallet funds an issue from its page; /bounties lists it; no serious or critical axe violation', { timeout: 240_000 }, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1280, height: 900 } })
    const wallet = headlessWallet(KEY)
    await wallet.install(page)
    await page.goto('/wallet')
    await waitForShell(page)
    await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
    await waitDelegated(page)
    await expectVisible(page.getByTestId('account-balance'))
    const login = (await api(page, 'GET', '/user')).login
    await api(page, 'POST', '/user/repos', { name: 'bounty-walk', auto_init: true }, 201)
    const issue = await api(page, 'POST', `/repos/${login}/bounty-walk/issues`, { title: 'The build is slow' }, 201)
    const path = `/${login}/bounty-walk/issues/${issue.number}`
    await page.goto(path)
    await waitForShell(page)
    const form = page.getByRole('form', { name: 'Fund this issue' })
    await expectVisible(form)
    await form.getByLabel('Amount (DFG)').fill('12.5')
    await form.getByRole('button', { name: 'Fund this issue' }).click()
    await expectVisible(form.getByText(/^Committed in block \d+\.$/), 30_000)
    await expectVisible(page.getByTestId('bounty-total'))
    assert.equal(await page.getByTestId('bounty-total').textContent(), '12.5 DFG')
    await page.goto('/bounties')
    await waitForShell(page)
    await expectVisible(page.getByRole('link', { name: 'The build is slow' }))
    const problems = []
    for (const theme of ['dark-warm', 'light']) {
      await page.evaluate((theme) => localStorage.setItem('theme-storage', JSON.stringify({ state: { theme }, version: 0 })), theme)
      for (const p of ['/bounties', path]) {
        await page.goto(p)
        await waitForShell(page)
        for (const v of await violations(page)) problems.push(`${theme} ${p}: ${v}`)
      }
      await page.goto('/bounties')
      await waitForShell(page)
      await page.getByRole('tab', { name: 'Paid' }).click()
      await expectVisible(page.getByText('No bounty has been paid yet.'))
      for (const v of await violations(page)) problems.push(`${theme} /bounties paid: ${v}`)
    }
    assert.deepEqual(problems, [])
  })
})
