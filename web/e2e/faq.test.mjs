// The FAQ: five groups, search filtering and the empty state.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectEventually, expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()
const GROUPS = ['General', 'Account and security', 'Tokens and rewards', 'Governance', 'Technical']
const EMPTY = 'No FAQs found matching your search.'

async function faqPage(t) {
  const opened = await openPage(t, env.browser, env.node.url)
  await opened.page.goto('/help/faq')
  await waitForShell(opened.page)
  await expectVisible(opened.page.locator('main').getByRole('heading', { level: 2, name: 'General' }))
  return opened
}

const groupTitles = (page) => page.locator('main').getByRole('heading', { level: 2 }).allInnerTexts()
const questions = (page) => page.locator('main details summary').allInnerTexts()
const search = (page) => page.getByRole('searchbox', { name: 'Search the FAQ' })

describe('FAQ', () => {
  test('/help/faq lists the five groups with their questions', TIMEOUT, async (t) => {
    const { page } = await faqPage(t)
    await expectVisible(page.locator('main').getByRole('heading', { level: 1 }))
    assert.deepEqual(await groupTitles(page), GROUPS)
    for (const name of GROUPS) {
      const region = page.getByRole('region', { name, exact: true })
      assert.ok((await region.locator('details').count()) >= 2, `${name} has questions`)
    }
    // An answer opens when its question is clicked.
    const first = page.locator('main details').first()
    await first.locator('summary').click()
    assert.equal(await first.evaluate((d) => d.open), true)
    assert.ok((await first.innerText()).length > (await first.locator('summary').innerText()).length, 'the answer is shown')
  })

  test('typing a query filters the questions and shows how many match', TIMEOUT, async (t) => {
    const { page } = await faqPage(t)
    const all = await questions(page)
    assert.ok(all.length >= 10, `the FAQ has ${all.length} questions`)
    await search(page).fill('wallet')
    await expectEventually(async () => (await questions(page)).length < all.length, true, { message: 'the list to shrink' })
    const shown = await questions(page)
    assert.ok(shown.length >= 1, 'some questions mention wallets')
    for (const item of await page.locator('main details').all()) {
      assert.match((await item.textContent()).toLowerCase(), /wallet/, 'every remaining question or answer mentions the query')
    }
    const status = page.getByRole('status').filter({ hasText: /match/ })
    await expectVisible(status)
    assert.match(await status.innerText(), new RegExp(`^${shown.length} question`))
    // Matching answers are opened so the user sees why they matched.
    assert.ok(await page.locator('main details').first().evaluate((d) => d.open))

    // Every word must match: adding a second word narrows further.
    await search(page).fill('wallet seed')
    await expectEventually(async () => (await questions(page)).length < shown.length, true, { message: 'a narrower list' })

    await search(page).fill('')
    await expectEventually(() => questions(page), all, { message: 'all questions back' })
    assert.deepEqual(await groupTitles(page), GROUPS)
  })

  test('a query that matches nothing shows the empty state', TIMEOUT, async (t) => {
    const { page } = await faqPage(t)
    await search(page).fill('zzqxj flibbertigibbet')
    await expectVisible(page.getByText(EMPTY, { exact: true }))
    assert.equal(await page.locator('main details').count(), 0)
    assert.deepEqual(await groupTitles(page), [])
  })
})
