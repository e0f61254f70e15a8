// Compare across forks, against the real node and git (issue 25, item 6):
// after a push to a branch, or to a branch of one's fork, the repository's
// home offers "Compare & pull request"; the compare page has repository and
// branch pickers with the contributor's own fork and branch preselected;
// comparing against a fork's branch works in the API and on the page, and
// opens a pull request from the fork. Each view runs at 1280 and 390 px in
// both themes.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { expectEventually, expectHidden, expectVisible, useNodeAndBrowser, TIMEOUT } from './harness.mjs'
import { api, cloneAs, assertLegible, assertNoSidewaysScroll, assertOnScreen, DESKTOP, git, open, session, signUp, VARIANTS, view } from './people.mjs'

const env = useNodeAndBrowser()

// alice owns the repository and pushes a branch to it; dave forks it and
// pushes a branch to his fork.
const s = { alice: null, dave: null, work: '' }

describe('compare across forks', () => {
  before(async () => {
    s.alice = await signUp(env.browser, env.node.url)
    s.dave = await signUp(env.browser, env.node.url)
    s.work = mkdtempSync(join(tmpdir(), 'dforge-e2e-compare-'))
    const a = await session(env.browser, env.node.url, s.alice)
    try {
      await api(a.page, 'POST', '/user/repos', { name: 'upstream', auto_init: true }, 201)
      const mine = await cloneAs(a.page, env.node.url, s.work, s.alice, s.alice.login, 'upstream', 'alice')
      git(mine, 'checkout', '--quiet', '-b', 'feature')
      writeFileSync(join(mine, 'CHANGELOG.md'), '# Changelog\n\n- Started.\n')
      git(mine, 'add', '.')
      git(mine, 'commit', '--quiet', '-m', 'Start a changelog')
      git(mine, 'push', '--quiet', 'origin', 'feature')
    } finally {
      await a.close()
    }
    const d = await session(env.browser, env.node.url, s.dave)
    try {
      await api(d.page, 'POST', `/repos/${s.alice.login}/upstream/forks`, {}, 202)
      const fork = await cloneAs(d.page, env.node.url, s.work, s.dave, s.dave.login, 'upstream', 'dave')
      git(fork, 'checkout', '--quiet', '-b', 'fix-typo')
      writeFileSync(join(fork, 'README.md'), '# upstream\n\nFixed a typo.\n')
      git(fork, 'commit', '--quiet', '-am', 'Fix a typo')
      git(fork, 'push', '--quiet', 'origin', 'fix-typo')
    } finally {
      await d.close()
    }
  })
  after(() => {
    if (s.work) rmSync(s.work, { recursive: true, force: true })
  })

  test("the API compares the base branch with a fork's branch", TIMEOUT, async () => {
    const res = await fetch(`${env.node.url}/api/v1/repos/${s.alice.login}/upstream/compare/main...${s.dave.login}:fix-typo`)
    assert.equal(res.status, 200, await res.clone().text())
    const c = await res.json()
    assert.equal(c.total_commits, 1)
    assert.deepEqual(c.commits.map((x) => x.commit.message.trim()), ['Fix a typo'])
    assert.deepEqual(c.files.map((f) => f.filename), ['README.md'])
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: after a push to a branch, the owner's home offers "Compare & pull request", which can be dismissed`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, `/${s.alice.login}/upstream`, variant.theme)
      const prompt = page.getByRole('region', { name: 'Recent push to feature' })
      await expectVisible(prompt)
      await expectVisible(prompt.getByText(/^feature had recent pushes/))
      const link = prompt.getByRole('link', { name: 'Compare & pull request' })
      const href = new URL(await link.getAttribute('href'), env.node.url)
      assert.equal(href.pathname, `/${s.alice.login}/upstream/pulls/new`)
      assert.deepEqual(Object.fromEntries(href.searchParams), { base: 'main', head: 'feature' })
      await assertLegible(link, `${variant.label}: the Compare & pull request button`)
      await assertLegible(prompt.getByText(/had recent pushes/), `${variant.label}: the prompt`)
      await assertOnScreen(page, link, `${variant.label}: the Compare & pull request button`)
      await assertNoSidewaysScroll(page, variant.label)
      // dave's fork's branch is his to propose, not alice's.
      await expectHidden(page.getByRole('region', { name: /fix-typo/ }))

      await prompt.getByRole('button', { name: 'Dismiss' }).click()
      await expectHidden(prompt)
      await page.reload()
      await expectVisible(page.getByRole('region', { name: 'Latest commit' }))
      await expectHidden(page.getByRole('region', { name: 'Recent push to feature' }))
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: after a push to his fork, the contributor is offered "Compare & pull request" on the upstream and on his fork`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.dave, variant)
      for (const home of [`/${s.alice.login}/upstream`, `/${s.dave.login}/upstream`]) {
        await open(page, home, variant.theme)
        const prompt = page.getByRole('region', { name: `Recent push to ${s.dave.login}:fix-typo` })
        await expectVisible(prompt)
        const link = prompt.getByRole('link', { name: 'Compare & pull request' })
        const href = new URL(await link.getAttribute('href'), env.node.url)
        assert.equal(href.pathname, `/${s.alice.login}/upstream/pulls/new`, `${home}: the pull request goes to the upstream`)
        assert.deepEqual(Object.fromEntries(href.searchParams), { base: 'main', head: `${s.dave.login}:fix-typo` })
        await assertLegible(link, `${variant.label}, ${home}: the Compare & pull request button`)
        await assertOnScreen(page, link, `${variant.label}, ${home}: the Compare & pull request button`)
        await assertNoSidewaysScroll(page, `${variant.label}, ${home}`)
        // alice's branch is not offered to dave.
        await expectHidden(page.getByRole('region', { name: 'Recent push to feature' }))
      }
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: the compare page preselects the contributor's fork and branch, and its pickers switch to another repository's branches`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.dave, variant)
      await open(page, `/${s.alice.login}/upstream/pulls/new`, variant.theme)
      const baseRepo = page.getByLabel('Base repository')
      const base = page.getByLabel('Base branch (merge into)')
      const headRepo = page.getByLabel('Head repository')
      const head = page.getByLabel('Compare branch (merge from)')
      const selected = (select) => select.evaluate((el) => el.selectedOptions[0]?.textContent ?? '')
      const options = (select) => select.evaluate((el) => [...el.options].map((o) => o.textContent))
      await expectEventually(() => selected(head), 'fix-typo', { message: "dave's newest branch preselected" })
      assert.equal(await selected(baseRepo), `${s.alice.login}/upstream`)
      assert.equal(await selected(base), 'main')
      assert.equal(await selected(headRepo), `${s.dave.login}/upstream`, "dave's own fork is the head")
      assert.deepEqual((await options(headRepo)).sort(), [`${s.alice.login}/upstream`, `${s.dave.login}/upstream`].sort())
      const preview = page.getByRole('region', { name: 'Comparing changes' })
      await expectVisible(preview.getByText('Commits: 1 · Files changed: 1'))
      await expectVisible(preview.getByText('Fix a typo'))
      await expectVisible(preview.getByRole('region', { name: 'README.md' }))
      await expectEventually(() => new URL(page.url()).searchParams.get('head'), `${s.dave.login}:fix-typo`, { message: 'the head kept in the URL' })
      for (const [name, select] of [['base repository', baseRepo], ['base branch', base], ['head repository', headRepo], ['head branch', head]]) {
        await assertOnScreen(page, select, `${variant.label}: the ${name} picker`)
        await assertLegible(select, `${variant.label}: the ${name} picker`)
      }
      await assertNoSidewaysScroll(page, variant.label)

      // Another repository as the head: its branches, and the comparison follows.
      await headRepo.selectOption({ label: `${s.alice.login}/upstream` })
      await expectEventually(() => options(head), ['Choose a branch', 'feature', 'main'])
      await head.selectOption('feature')
      await expectVisible(preview.getByText('Start a changelog'))
      await expectVisible(preview.getByRole('region', { name: 'CHANGELOG.md' }))
      await expectEventually(() => new URL(page.url()).searchParams.get('head'), 'feature', { message: 'a branch of the base repository named alone' })
      assert.deepEqual(pageErrors, [])
    })
  }

  test('"Compare & pull request" opens a pull request from the fork, and the prompt goes away', TIMEOUT, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.dave, { viewport: DESKTOP, theme: 'light' })
    await open(page, `/${s.alice.login}/upstream`, 'light')
    const prompt = page.getByRole('region', { name: `Recent push to ${s.dave.login}:fix-typo` })
    await prompt.getByRole('link', { name: 'Compare & pull request' }).click()
    await page.waitForURL((u) => u.pathname === `/${s.alice.login}/upstream/pulls/new`)
    await expectVisible(page.getByRole('region', { name: 'Comparing changes' }).getByText('Fix a typo'))
    await page.getByLabel('Title').fill('Fix a typo')
    await page.getByRole('button', { name: 'Create pull request' }).click()
    await page.waitForURL((u) => /^\/[^/]+\/upstream\/pulls\/\d+$/.test(u.pathname))
    await expectVisible(page.getByText(`wants to merge ${s.dave.login}:fix-typo into main`))
    const number = new URL(page.url()).pathname.split('/').pop()
    const pr = await api(page, 'GET', `/repos/${s.alice.login}/upstream/pulls/${number}`, undefined, 200)
    assert.equal(pr.head.ref, 'fix-typo')
    assert.equal(pr.head.repo.full_name, `${s.dave.login}/upstream`)
    await page.getByRole('tab', { name: 'Files changed' }).click()
    await expectVisible(page.getByRole('region', { name: 'README.md' }).getByText('Fixed a typo.'))

    // With a pull request open for it, the branch is no longer offered.
    await open(page, `/${s.alice.login}/upstream`, 'light')
    await expectVisible(page.getByRole('region', { name: 'Latest commit' }))
    await expectHidden(page.getByRole('region', { name: `Recent push to ${s.dave.login}:fix-typo` }))
    assert.deepEqual(pageErrors, [])
  })
})
