// The review cycle of a pull request as GitHub users know it, against the
// real node and git (issue 25, items 4 and 11): a request for changes
// names its reviewer in the merge box and the merge button says it
// overrides it; an approval names its approver; a push to the head branch
// shows as "pushed N commits" and makes a line comment on a changed line
// Outdated; the diff is highlighted, has a file tree and per-file "Viewed"
// boxes kept for the user on the node, and the review form is a popover from
// "Review changes". Each view runs at 1280 and 390 px in both themes.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { expectEventually, expectHidden, expectVisible, useNodeAndBrowser, waitFor, TIMEOUT } from './harness.mjs'
import { api, assertLegible, assertNoSidewaysScroll, assertOnScreen, contrast, DESKTOP, git, open, PHONE, remoteURL, session, signUp, VARIANTS, view, writeToken } from './people.mjs'

const env = useNodeAndBrowser()
const LONG = { timeout: 150_000 }

// The people: alice owns the repository and opens the pull request, bob
// asks for changes, carol approves.
const s = { alice: null, bob: null, carol: null, work: '', clone: '', pr: '' }

const CALC = `package calc

// Add returns the sum of a and b.
func Add(a, b int) int {
	return a + b
}
`
// Line 5 of calc.go, the one bob comments on and the later push changes.
const COMMENTED = 'return a + b'
const REMARK = 'Should this check for overflow?'

const mergeBox = (page) => page.getByRole('region', { name: 'Merge', exact: true })
const reviewCard = (page, who, verdict) => page.getByRole('article', { name: `${who} ${verdict}`, exact: true })

/** The merge box as alice (a maintainer) sees it in one variant; returns the page. */
async function aliceMergeBox(t, variant) {
  const v = await view(t, env.browser, env.node.url, s.alice, variant)
  await open(v.page, s.pr, variant.theme)
  const box = mergeBox(v.page)
  await expectVisible(box)
  await box.scrollIntoViewIfNeeded()
  return { ...v, box }
}

/** Asserts what a merge box says about the reviewers and its button, legibly and on screen. */
async function assertMergeBox({ page, box, pageErrors }, variant, { requested, approved, button }) {
  const verdicts = box.getByRole('list', { name: 'Reviews' })
  if (requested) {
    const line = verdicts.getByText(`Changes requested by ${requested}`, { exact: true })
    await expectVisible(line)
    await assertLegible(line, `${variant.label}: "Changes requested"`)
  } else {
    await expectHidden(box.getByText(/Changes requested by/))
  }
  if (approved) {
    await expectEventually(() => verdicts.textContent(), approved, { message: `the merge box to say ${approved}` })
    const line = verdicts.getByText(approved)
    await assertLegible(line, `${variant.label}: "Approved by"`)
  }
  const merge = box.getByRole('button', { name: button, exact: true })
  await expectVisible(merge)
  assert.equal(await merge.isEnabled(), true, 'the branch merges cleanly, so the button works')
  await assertLegible(merge, `${variant.label}: the merge button`)
  await assertOnScreen(page, merge, `${variant.label}: the merge button`)
  const described = await merge.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent ?? '')
  const primary = await merge.evaluate((b) => b.classList.contains('btn-primary'))
  if (requested) {
    assert.match(described, new RegExp(`Changes requested by ${requested}`), 'the override button is described by who asked for changes')
    assert.equal(primary, false, 'a merge that overrides a request for changes is not the primary action')
  } else {
    assert.equal(described, '', 'nothing to override')
    assert.equal(primary, true, 'with no change requested, merging is the primary action')
  }
  await assertNoSidewaysScroll(page, variant.label)
  assert.deepEqual(pageErrors, [])
}

describe('the review cycle', () => {
  before(async () => {
    s.alice = await signUp(env.browser, env.node.url)
    s.bob = await signUp(env.browser, env.node.url)
    s.carol = await signUp(env.browser, env.node.url)
    const a = await session(env.browser, env.node.url, s.alice)
    try {
      await api(a.page, 'POST', '/user/repos', { name: 'cycle', auto_init: true }, 201)
      const token = await writeToken(a.page, s.alice.login)
      s.work = mkdtempSync(join(tmpdir(), 'dforge-e2e-cycle-'))
      git(s.work, 'clone', '--quiet', remoteURL(env.node.url, s.alice.login, 'cycle', s.alice.login, token), 'cycle')
      s.clone = join(s.work, 'cycle')
      git(s.clone, 'checkout', '--quiet', '-b', 'feature')
      mkdirSync(join(s.clone, 'src/calc'), { recursive: true })
      mkdirSync(join(s.clone, 'docs'))
      writeFileSync(join(s.clone, 'src/calc/calc.go'), CALC)
      writeFileSync(join(s.clone, 'docs/usage.md'), '# Usage\n\nCall `calc.Add`.\n')
      git(s.clone, 'add', '.')
      git(s.clone, 'commit', '--quiet', '-m', 'Add calc')
      git(s.clone, 'push', '--quiet', 'origin', 'feature')
      const pr = await api(a.page, 'POST', `/repos/${s.alice.login}/cycle/pulls`, { head: 'feature', base: 'main', title: 'Add calc' }, 201)
      s.pr = `/${s.alice.login}/cycle/pulls/${pr.number}`
    } finally {
      await a.close()
    }
  })
  after(() => {
    if (s.work) rmSync(s.work, { recursive: true, force: true })
  })

  test('"Review changes" opens the review form in a popover over the diff; bob requests changes on a line', TIMEOUT, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, { viewport: DESKTOP, theme: 'light' })
    await open(page, `${s.pr}?tab=files`, 'light')
    await page.getByRole('button', { name: 'Comment on new line 5 of src/calc/calc.go' }).click()
    await page.getByLabel('Comment on line 5 of src/calc/calc.go').fill(REMARK)
    await page.getByRole('button', { name: 'Add to review' }).click()

    const review = page.getByRole('button', { name: /^Review changes/ })
    const form = page.getByRole('dialog', { name: 'Finish your review' })
    assert.equal(await review.getAttribute('aria-expanded'), 'false')
    await expectHidden(form)
    const diff = page.getByRole('region', { name: 'src/calc/calc.go' })
    // Measured on the document, not the viewport: focusing the summary may scroll.
    const top = (el) => el.getBoundingClientRect().top + window.scrollY
    const diffTop = await diff.evaluate(top)
    await review.click()
    await expectVisible(form)
    assert.equal(await review.getAttribute('aria-expanded'), 'true')
    await expectVisible(form.getByText('1 comment waits for this review.'))
    assert.equal(await page.evaluate(() => document.activeElement?.id), await form.getByLabel('Summary').getAttribute('id'), 'focus moves to the summary')
    // A popover floats over the page: the diff does not move, and the form covers part of it.
    assert.match(await form.evaluate((el) => getComputedStyle(el).position), /absolute|fixed/)
    assert.equal(await diff.evaluate(top), diffTop, 'opening the form does not push the diff down')
    const [f, d] = [await form.boundingBox(), await diff.boundingBox()]
    assert.ok(f.y < d.y + d.height && f.y + f.height > d.y, 'the form lies over the diff')

    // Escape closes it and gives focus back; what was typed stays.
    await form.getByLabel('Summary').fill('Please handle overflow.')
    await page.keyboard.press('Escape')
    await expectHidden(form)
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-expanded')), 'false', 'focus is back on Review changes')
    await review.click()
    assert.equal(await form.getByLabel('Summary').inputValue(), 'Please handle overflow.')
    await form.getByLabel('Request changes').check()
    await form.getByRole('button', { name: 'Submit review' }).click()
    await expectHidden(form)
    await page.getByRole('tab', { name: 'Conversation' }).click()
    await expectVisible(reviewCard(page, s.bob.login, 'requested changes'))
    assert.deepEqual(pageErrors, [])
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: the merge box says who requested changes and marks the merge as overriding them`, TIMEOUT, async (t) => {
      const v = await aliceMergeBox(t, variant)
      await assertMergeBox(v, variant, { requested: s.bob.login, button: 'Merge without addressing changes requested' })
      // The line comment is in the conversation with its code, not outdated yet.
      const card = reviewCard(v.page, s.bob.login, 'requested changes')
      await expectVisible(card.getByText(REMARK))
      await expectVisible(card.locator('.diff-snippet').getByText(COMMENTED))
      await expectHidden(card.getByText('Outdated', { exact: true }))
    })
  }

  test('alice pushes two commits that change the commented line', TIMEOUT, async () => {
    writeFileSync(join(s.clone, 'src/calc/calc.go'), CALC.replace(`\t${COMMENTED}\n`, '\tif b > 0 && a > math.MaxInt-b {\n\t\tpanic("overflow")\n\t}\n\treturn a + b\n'))
    git(s.clone, 'commit', '--quiet', '-am', 'Check for overflow')
    writeFileSync(join(s.clone, 'docs/usage.md'), '# Usage\n\nCall `calc.Add`; it panics on overflow.\n')
    git(s.clone, 'commit', '--quiet', '-am', 'Document the panic')
    git(s.clone, 'push', '--quiet', 'origin', 'feature')
    const head = git(s.clone, 'rev-parse', 'HEAD').trim()
    const [, owner, repo, , number] = s.pr.split('/')
    await expectEventually(
      async () => {
        const res = await fetch(`${env.node.url}/api/v1/repos/${owner}/${repo}/issues/${number}/timeline`)
        const pushes = (await res.json()).filter((e) => e.type === 'pull_push')
        return pushes.map((e) => JSON.parse(e.body).commit_ids.length)
      },
      [2],
      { timeout: 30_000, message: 'one pull_push event of two commits in the timeline' },
    )
    const pr = await (await fetch(`${env.node.url}/api/v1/repos/${owner}/${repo}/pulls/${number}`)).json()
    assert.equal(pr.head.sha, head)
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: the push shows as "pushed 2 commits", and bob's comment on the changed line is Outdated`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      await open(page, s.pr, variant.theme)
      const pushed = page.locator('.timeline-push').filter({ hasText: `${s.alice.login} pushed 2 commits` })
      await expectVisible(pushed)
      const commits = pushed.getByRole('list', { name: 'Pushed commits' }).getByRole('listitem')
      assert.deepEqual(
        (await commits.allTextContents()).map((c) => c.replace(/^[0-9a-f]{7,}\s*/, '').trim()),
        ['Check for overflow', 'Document the panic'],
      )
      await assertLegible(pushed.getByText('pushed 2 commits', { exact: true }), `${variant.label}: the push event`)
      // It comes after the review it answers.
      const card = reviewCard(page, s.bob.login, 'requested changes')
      const [r, p] = [await card.boundingBox(), await pushed.boundingBox()]
      assert.ok(p.y > r.y, 'the push is below the review in the timeline')

      const badge = card.getByText('Outdated', { exact: true })
      await expectVisible(badge)
      await assertLegible(badge, `${variant.label}: the Outdated badge`)
      await expectVisible(card.getByText('The line this comment is on has changed since.'))
      // Folded, as on GitHub; opening it shows the comment.
      await expectHidden(card.getByText(REMARK))
      await badge.click()
      await expectVisible(card.getByText(REMARK))

      // On the files tab it no longer sits under the line that changed.
      await page.getByRole('tab', { name: 'Files changed' }).click()
      await expectVisible(page.getByRole('region', { name: 'src/calc/calc.go' }).getByText('panic("overflow")'))
      await expectHidden(page.getByText(REMARK))
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  test('carol approves from a phone', TIMEOUT, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.carol, { viewport: PHONE, theme: 'dark-warm' })
    await open(page, `${s.pr}?tab=files`, 'dark-warm')
    await page.getByRole('button', { name: /^Review changes/ }).click()
    const form = page.getByRole('dialog', { name: 'Finish your review' })
    await assertOnScreen(page, form, 'the review popover on a phone')
    await form.getByLabel('Summary').fill('Fine by me.')
    await form.getByLabel('Approve').check()
    await form.getByRole('button', { name: 'Submit review' }).click()
    await expectHidden(form)
    assert.deepEqual(pageErrors, [])
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: with one approval and one request for changes the merge box names both`, TIMEOUT, async (t) => {
      const v = await aliceMergeBox(t, variant)
      await assertMergeBox(v, variant, { requested: s.bob.login, approved: new RegExp(`Approved by ${s.carol.login}$`), button: 'Merge without addressing changes requested' })
    })
  }

  test('bob approves the new head', TIMEOUT, async () => {
    const b = await session(env.browser, env.node.url, s.bob)
    try {
      const [, owner, repo, , number] = s.pr.split('/')
      const head = git(s.clone, 'rev-parse', 'HEAD').trim()
      await api(b.page, 'POST', `/repos/${owner}/${repo}/pulls/${number}/reviews`, { event: 'APPROVED', body: 'Thanks, that does it.', commit_id: head, comments: [] }, 200)
    } finally {
      await b.close()
    }
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: once bob approves too, the merge box says "Approved by" both and merging is plain again`, TIMEOUT, async (t) => {
      const v = await aliceMergeBox(t, variant)
      await assertMergeBox(v, variant, { approved: new RegExp(`Approved by (${s.bob.login}, ${s.carol.login}|${s.carol.login}, ${s.bob.login})$`), button: 'Merge pull request' })
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: the diff is highlighted, has a file tree, and keeps "Viewed" for the user across a reload and another browser`, LONG, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      await open(page, `${s.pr}?tab=files`, variant.theme)
      const calc = page.getByRole('region', { name: 'src/calc/calc.go' })
      const usage = page.getByRole('region', { name: 'docs/usage.md' })

      // Syntax highlighting: Go's keywords are marked and coloured apart from the text.
      const keyword = calc.locator('.diff-code .hljs-keyword', { hasText: /^func$/ })
      await expectVisible(keyword)
      const [kw, plain] = await Promise.all([
        keyword.first().evaluate((el) => getComputedStyle(el).color),
        calc.locator('.diff-code .hljs').first().evaluate((el) => getComputedStyle(el).color),
      ])
      assert.notEqual(kw, plain, `${variant.label}: a keyword has its own colour`)
      // Every kind of token is legible on the added lines' tint.
      const kinds = await calc.locator('.diff-code .hljs [class^="hljs-"]').evaluateAll((els) => [...new Set(els.map((e) => e.className))])
      assert.ok(kinds.length >= 3, `several kinds of token are marked (${kinds})`)
      for (const kind of kinds) await assertLegible(calc.locator(`.diff-code .hljs [class="${kind}"]`), `${variant.label}: a highlighted ${kind}`)

      // The file tree: beside the diff on a desktop, behind a toggle on a phone.
      const tree = page.getByRole('navigation', { name: 'Changed files' })
      if (variant.viewport === PHONE) {
        await expectHidden(tree)
        await page.getByRole('button', { name: 'File tree' }).click()
      }
      await expectVisible(tree)
      await expectVisible(tree.getByRole('button', { name: /src\/calc/ }))
      await expectVisible(tree.getByRole('button', { name: /docs/ }))
      const usageLink = tree.getByRole('link', { name: /usage\.md/ })
      await assertLegible(usageLink.locator('.diff-tree-name'), `${variant.label}: a file in the tree`)
      await usageLink.click()
      await waitFor(() => page.evaluate(() => window.location.hash.startsWith('#diff-')), { message: 'the address to name the file' })
      await waitFor(async () => {
        const box = await usage.boundingBox()
        return box && box.y >= 0 && box.y < page.viewportSize().height
      }, { message: 'docs/usage.md scrolled into view' })

      // Viewed: counted, folded, marked in the tree, and kept after a reload.
      // The node keeps the mark for the user: the first variant makes it,
      // and every later one, a new browser context with empty storage,
      // finds it made.
      const status = page.getByRole('status').filter({ hasText: /files viewed/ })
      const box = usage.getByRole('checkbox', { name: 'Viewed docs/usage.md' })
      if (variant === VARIANTS[0]) {
        await expectVisible(status.getByText('0 / 2 files viewed'))
        await box.check()
      } else {
        await expectVisible(usage.getByRole('checkbox', { name: 'Viewed docs/usage.md', checked: true }))
      }
      await expectVisible(status.getByText('1 / 2 files viewed'))
      await expectHidden(usage.getByRole('table'))
      await expectVisible(calc.getByRole('table'))
      await page.reload()
      await expectVisible(page.getByRole('region', { name: 'docs/usage.md' }).getByRole('checkbox', { name: 'Viewed docs/usage.md', checked: true }))
      await expectVisible(page.getByRole('status').getByText('1 / 2 files viewed'))
      await expectHidden(page.getByRole('region', { name: 'docs/usage.md' }).getByRole('table'))
      assert.equal(await page.getByRole('region', { name: 'src/calc/calc.go' }).getByRole('checkbox', { name: 'Viewed src/calc/calc.go' }).isChecked(), false)
      if (variant.viewport === PHONE) await page.getByRole('button', { name: 'File tree' }).click()
      const viewedInTree = page.getByRole('navigation', { name: 'Changed files' }).getByRole('link', { name: /usage\.md.*\(viewed\)/ })
      assert.equal(await viewedInTree.count(), 1, 'the tree marks the file viewed')

      // The review popover fits the screen in this variant too.
      await page.getByRole('button', { name: /^Review changes/ }).click()
      const form = page.getByRole('dialog', { name: 'Finish your review' })
      await expectVisible(form)
      await assertOnScreen(page, form, `${variant.label}: the review popover`)
      assert.ok((await contrast(form.getByRole('heading', { name: 'Finish your review' }))) >= 4.5, `${variant.label}: the popover's heading is legible`)
      await page.keyboard.press('Escape')
      await expectHidden(form)
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }
})
