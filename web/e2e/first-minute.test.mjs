// The first minute on dForge as a GitHub or Gitea user spends it, against
// the real node, git and chain (issue 25, items 2, 5, 10 and 14):
// - a merged pull request's header names the maintainer who merged it;
// - a repository's owner is notified of a new issue and a new pull request
//   another user opens there, without having clicked Watch;
// - the issue and pull request lists keep their filters (author, assignee,
//   milestone, several labels) and their order in the URL, across a reload;
// - a transfer notification says "25 DFG", never micro-units;
// - the events page tells a signed-in user, the admin too, how to become an
//   organizer, with a link to the role proposal prefilled for them;
// - Help's "Popular articles" are in German when the interface is;
// - a 404 page's tab title names what is missing ("… · dForge").
// Each view runs at 1280 and 390 px in both themes.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectEventually, expectHidden, expectVisible, localeFile, useNodeAndBrowser, waitForShell, TIMEOUT } from './harness.mjs'
import { api, cloneAs, assertLegible, assertNoSidewaysScroll, assertOnScreen, DESKTOP, git, open, PHONE, session, signUp, VARIANTS, view } from './people.mjs'
import { headlessWallet } from './wallet.mjs'

// alice owns the repository, holds tokens and is the node's admin; bob
// forks it, opens issues and pull requests there, and receives 25 DFG
// from alice.
const ALICE_KEY = generatePrivateKey()
const ALICE = privateKeyToAccount(ALICE_KEY).address
const env = useNodeAndBrowser({ alloc: { [ALICE]: 1_000_000_000n }, serveArgs: ['--admin', ALICE] })
const LONG = { timeout: 150_000 }
const REPO = 'first-minute'

const s = {
  alice: null,
  bob: null,
  work: '',
  /** Issue and pull request numbers by their keys below. */
  issue: {},
  pull: {},
}

// The issues: M1, M2 and M3 are bob's, labelled bug and ui, in milestone v1
// and assigned to alice: the only ones every filter below keeps. Each other
// one misses one filter. M2 gets two comments and M3 one, then M1 is
// edited last, so each order of the four puts them differently.
const ISSUES = {
  M1: 'Crash on save',
  M2: 'Menu flickers',
  M3: 'Search is slow',
  byAlice: 'Dark mode colours',
  oneLabel: 'Typo in the docs',
  unassigned: 'Button misaligned',
  noMilestone: 'Slow first load',
}
const ORDERS = {
  newest: { label: 'Newest', titles: [ISSUES.M3, ISSUES.M2, ISSUES.M1] },
  oldest: { label: 'Oldest', titles: [ISSUES.M1, ISSUES.M2, ISSUES.M3] },
  mostcomment: { label: 'Most commented', titles: [ISSUES.M2, ISSUES.M3, ISSUES.M1] },
  recentupdate: { label: 'Recently updated', titles: [ISSUES.M1, ISSUES.M3, ISSUES.M2] },
}

// The pull requests: bob's "Add a greeting" is the one alice merges;
// "Tweak the colours" and "Polish the menu" are bob's and pass every
// filter; alice's "Update the docs" and bob's "Fix the crash" (one label)
// do not.
const PULLS = {
  merge: { title: 'Add a greeting', branch: 'feature' },
  tweak: { title: 'Tweak the colours', branch: 'tweak' },
  polish: { title: 'Polish the menu', branch: 'polish' },
  oneLabel: { title: 'Fix the crash', branch: 'only-bug' },
}
const ALICE_PULL = { title: 'Update the docs', branch: 'docs-update' }

const base = () => `/repos/${s.alice.login}/${REPO}`
const repoPath = () => `/${s.alice.login}/${REPO}`

/**
 * Sends `amount` DFG from who (signed up with privateKey) to `to` with the
 * wallet page's Send form: a Transfer signed in the wallet and committed in
 * a block.
 */
async function send(who, privateKey, to, amount) {
  const { page, close } = await session(env.browser, env.node.url, who)
  try {
    await headlessWallet(privateKey).install(page)
    await page.goto('/wallet')
    await waitForShell(page)
    await expectVisible(page.getByTestId('account-balance'))
    await page.getByRole('tab', { name: 'Send', exact: true }).click()
    await page.getByLabel('Recipient address', { exact: true }).fill(to)
    await page.getByLabel('Amount in DFG', { exact: true }).fill(amount)
    await page.getByRole('button', { name: 'Sign and send' }).click()
    await expectVisible(page.getByText(/^Committed in block \d+\.$/), 30_000)
  } finally {
    await close()
  }
}

/** Commits one new file on a new branch from main and pushes it. */
function pushBranch(clone, branch, file) {
  git(clone, 'checkout', '--quiet', '-B', branch, 'origin/main')
  writeFileSync(join(clone, file), `${branch}\n`)
  git(clone, 'add', file)
  git(clone, 'commit', '--quiet', '-m', `Add ${file}`)
  git(clone, 'push', '--quiet', 'origin', branch)
}

/** The titles of the issue or pull request list, in its order. */
const listTitles = (page) => page.locator('ul.issue-list .issue-row-title').allTextContents()

/** The filter bar's controls. */
function filterBar(page) {
  const group = page.getByRole('group', { name: 'Filters', exact: true })
  return {
    group,
    author: group.getByLabel('Author', { exact: true }),
    assignee: group.getByLabel('Assignee', { exact: true }),
    milestone: group.getByLabel('Milestone', { exact: true }),
    labels: group.locator('details.filter-menu'),
    sort: group.getByLabel('Sort', { exact: true }),
  }
}

/** The list page's query string as an object. */
const query = (page) => Object.fromEntries([...new URL(page.url()).searchParams].sort(([a], [b]) => a.localeCompare(b)))

/** Sets author, assignee, milestone, labels and sort through the filter bar, as a person does. */
async function setFilters(page, { author, assignee, milestone, labels, sort }) {
  const bar = filterBar(page)
  await bar.author.fill(author)
  await bar.author.press('Enter')
  await bar.assignee.fill(assignee)
  await bar.assignee.press('Enter')
  await bar.milestone.selectOption({ label: milestone })
  await bar.labels.locator('summary').click()
  for (const name of labels) await bar.labels.getByRole('checkbox', { name, exact: true }).check()
  await page.keyboard.press('Escape')
  await bar.sort.selectOption({ label: sort })
}

/** Asserts the filter bar shows the filters (after a reload too). */
async function assertFilterBar(page, { author, assignee, milestone, labels, sort }) {
  const bar = filterBar(page)
  await expectEventually(() => bar.author.inputValue(), author, { message: `the author field to say ${author}` })
  assert.equal(await bar.assignee.inputValue(), assignee)
  assert.equal(await bar.milestone.locator('option:checked').textContent(), milestone)
  assert.equal((await bar.labels.locator('summary').textContent()).trim(), `${labels.length} labels`)
  await bar.labels.locator('summary').click()
  for (const name of labels) assert.equal(await bar.labels.getByRole('checkbox', { name, exact: true }).isChecked(), true, `label ${name} is ticked`)
  await page.keyboard.press('Escape')
  assert.equal(await bar.sort.locator('option:checked').textContent(), sort)
}

/** The header's Language select: in the row on a desktop, in the drawer behind Menu on a phone. */
async function languageSelect(page, variant) {
  if (variant.viewport === PHONE) await page.locator('header').getByRole('button', { name: 'Menu', exact: true }).click()
  return page.locator('header').getByRole('combobox', { name: 'Language' })
}

describe('the first minute', () => {
  before(async () => {
    s.work = mkdtempSync(join(tmpdir(), 'dforge-e2e-first-'))
    s.bob = await signUp(env.browser, env.node.url)
    s.alice = await signUp(env.browser, env.node.url, { privateKey: ALICE_KEY })
    await send(s.alice, ALICE_KEY, s.bob.address, '25')

    // alice's repository, its labels and milestone, and her own pull request.
    const a = await session(env.browser, env.node.url, s.alice)
    const ids = {}
    try {
      await api(a.page, 'POST', '/user/repos', { name: REPO, auto_init: true }, 201)
      for (const [name, color] of [['bug', 'ee0701'], ['ui', '0052cc'], ['docs', '0e8a16']]) {
        ids[name] = (await api(a.page, 'POST', `${base()}/labels`, { name, color }, 201)).id
      }
      ids.v1 = (await api(a.page, 'POST', `${base()}/milestones`, { title: 'v1' }, 201)).id
      const mine = await cloneAs(a.page, env.node.url, s.work, s.alice, s.alice.login, REPO, 'alice')
      pushBranch(mine, ALICE_PULL.branch, 'DOCS.md')
      s.pull.alice = (await api(a.page, 'POST', `${base()}/pulls`, { head: ALICE_PULL.branch, base: 'main', title: ALICE_PULL.title }, 201)).number
    } finally {
      await a.close()
    }

    // bob forks it, pushes four branches to his fork, and opens pull requests and issues.
    const b = await session(env.browser, env.node.url, s.bob)
    try {
      await api(b.page, 'POST', `${base()}/forks`, {}, 202)
      const fork = await cloneAs(b.page, env.node.url, s.work, s.bob, s.bob.login, REPO, 'bob')
      for (const [key, { title, branch }] of Object.entries(PULLS)) {
        pushBranch(fork, branch, `${branch}.txt`)
        s.pull[key] = (await api(b.page, 'POST', `${base()}/pulls`, { head: `${s.bob.login}:${branch}`, base: 'main', title }, 201)).number
      }
      for (const key of ['M1', 'M2', 'M3', 'oneLabel', 'unassigned', 'noMilestone']) {
        s.issue[key] = (await api(b.page, 'POST', `${base()}/issues`, { title: ISSUES[key], body: `${ISSUES[key]}: seen on the first try.` }, 201)).number
      }
    } finally {
      await b.close()
    }

    // alice opens one issue and triages: labels, milestone and assignee,
    // so that every item but the matching ones misses exactly one filter.
    const a2 = await session(env.browser, env.node.url, s.alice)
    try {
      s.issue.byAlice = (await api(a2.page, 'POST', `${base()}/issues`, { title: ISSUES.byAlice }, 201)).number
      const both = [ids.bug, ids.ui]
      const all = { milestone: ids.v1, assignees: [s.alice.login] }
      const triage = [
        [s.issue.M1, both, all],
        [s.issue.M2, both, all],
        [s.issue.M3, both, all],
        [s.issue.byAlice, both, all],
        [s.issue.oneLabel, [ids.bug], all],
        [s.issue.unassigned, both, { milestone: ids.v1 }],
        [s.issue.noMilestone, both, { assignees: [s.alice.login] }],
        [s.pull.tweak, both, all],
        [s.pull.polish, both, all],
        [s.pull.alice, both, all],
        [s.pull.oneLabel, [ids.bug], all],
      ]
      for (const [number, labels, patch] of triage) {
        await api(a2.page, 'POST', `${base()}/issues/${number}/labels`, { labels }, 200)
        await api(a2.page, 'PATCH', `${base()}/issues/${number}`, patch, 201)
      }
    } finally {
      await a2.close()
    }

    // Comments: two on M2, then one on M3; then alice edits M1 last.
    const b2 = await session(env.browser, env.node.url, s.bob)
    try {
      for (const [key, body] of [['M2', 'Still flickers.'], ['M2', 'On the phone too.'], ['M3', 'Slow here as well.']]) {
        await api(b2.page, 'POST', `${base()}/issues/${s.issue[key]}/comments`, { body }, 201)
      }
    } finally {
      await b2.close()
    }
    const a3 = await session(env.browser, env.node.url, s.alice)
    try {
      await api(a3.page, 'PATCH', `${base()}/issues/${s.issue.M1}`, { body: 'Crash on save: open a file, edit it, save.' }, 201)
    } finally {
      await a3.close()
    }
  })
  after(() => {
    if (s.work) rmSync(s.work, { recursive: true, force: true })
  })

  // Item 2: the header of a merged pull request names who merged it.

  test("alice merges bob's pull request from his fork with the merge box", TIMEOUT, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, { viewport: DESKTOP, theme: 'light' })
    await open(page, `${repoPath()}/pulls/${s.pull.merge}`, 'light')
    const byline = page.locator('header.issue-header > div > span.muted')
    await expectEventually(() => byline.textContent(), `${s.bob.login} wants to merge ${s.bob.login}:${PULLS.merge.branch} into main`)
    const box = page.getByRole('region', { name: 'Merge', exact: true })
    await box.getByRole('button', { name: 'Merge pull request', exact: true }).click()
    await expectVisible(page.getByRole('heading', { name: 'Merged', exact: true }))
    const pr = await api(page, 'GET', `${base()}/pulls/${s.pull.merge}`, undefined, 200)
    assert.equal(pr.merged, true)
    assert.equal(pr.user.login, s.bob.login)
    assert.equal(pr.merged_by?.login, s.alice.login, 'the API names alice as the one who merged')
    assert.deepEqual(pageErrors, [])
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: a merged pull request's header says "<maintainer> merged <author>:branch into main", naming alice, not bob`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      await open(page, `${repoPath()}/pulls/${s.pull.merge}`, variant.theme)
      const header = page.locator('header.issue-header')
      await expectVisible(header.getByText('Merged', { exact: true }))
      const byline = header.locator(':scope > div > span.muted')
      await expectEventually(() => byline.textContent(), new RegExp(`^${s.alice.login} merged ${s.bob.login}:${PULLS.merge.branch} into main `), {
        message: 'the header to name alice as the one who merged',
      })
      // The name is alice's profile link; bob is named only in his branch.
      const who = byline.getByRole('link')
      assert.deepEqual(await who.allTextContents(), [s.alice.login])
      assert.equal(await who.getAttribute('href'), `/user/${s.alice.login}`)
      // The timeline's merge box says the same.
      const merged = page.getByRole('region', { name: 'Merged', exact: true })
      await expectVisible(merged)
      assert.match(await merged.textContent(), new RegExp(`${s.alice.login} merged this into main`))
      await assertLegible(byline, `${variant.label}: the header's byline`)
      await assertOnScreen(page, byline, `${variant.label}: the header's byline`)
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  // Item 5: the owner hears of a new issue and a new pull request in her repository.

  test('alice never clicked Watch, yet she watches her own repository: its header offers Unwatch, pressed', TIMEOUT, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice)
    await open(page, repoPath(), 'light')
    const watch = page.getByRole('button', { name: /^Unwatch/ })
    await expectVisible(watch)
    assert.equal(await watch.getAttribute('aria-pressed'), 'true')
    const repo = await api(page, 'GET', base(), undefined, 200)
    assert.equal(repo.watched_by_me, true, 'the API says she watches it')
    // bob, who only forked it, does not.
    const b = await view(t, env.browser, env.node.url, s.bob)
    await open(b.page, repoPath(), 'light')
    await expectVisible(b.page.getByRole('button', { name: /^Watch/ }))
    assert.deepEqual(pageErrors, [])
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: the owner's notifications list bob's new issue and new pull request, and the bell counts them`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, '/notifications', variant.theme)
      const bell = page.locator('header').getByRole('link', { name: /^Notifications: \d+ unread$/ })
      await expectVisible(bell)
      const unread = Number(/(\d+) unread/.exec(await bell.getAttribute('aria-label'))[1])
      assert.ok(unread >= 2, `the bell counts at least the issue and the pull request (${unread})`)
      await assertOnScreen(page, bell, `${variant.label}: the notification bell`)
      for (const [kind, title] of [['Issue', ISSUES.M1], ['Pull request', PULLS.tweak.title]]) {
        const link = page.getByRole('main').getByRole('link', { name: title, exact: true })
        await expectVisible(link)
        const row = page.locator('li.notification-row').filter({ has: page.getByRole('link', { name: title, exact: true }) })
        assert.equal(await row.locator('.notification-kind').textContent(), kind)
        assert.match(await row.locator('.notification-meta').textContent(), new RegExp(`${s.alice.login}/${REPO}`))
        assert.match(await row.getAttribute('class'), /\bunread\b/)
        await assertLegible(link, `${variant.label}: the notification of the ${kind.toLowerCase()}`)
        await assertOnScreen(page, link, `${variant.label}: the notification of the ${kind.toLowerCase()}`)
      }
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  // Item 10: the lists keep their filters and order in the URL.

  const issueFilters = () => ({ author: s.bob.login, assignee: s.alice.login, milestone: 'v1', labels: ['bug', 'ui'] })

  for (const variant of VARIANTS) {
    test(`${variant.label}: the issue list's author, assignee, milestone, two labels and "Most commented" set in the bar are kept in the URL and hold across a reload`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, `${repoPath()}/issues`, variant.theme)
      await expectEventually(async () => (await listTitles(page)).sort(), Object.values(ISSUES).sort(), { message: 'all seven issues listed' })
      const f = { ...issueFilters(), sort: ORDERS.mostcomment.label }
      await setFilters(page, f)
      const want = { assignee: s.alice.login, author: s.bob.login, labels: 'bug,ui', milestone: 'v1', sort: 'mostcomment' }
      await expectEventually(() => query(page), want, { message: 'the filters in the URL' })
      await expectEventually(() => listTitles(page), ORDERS.mostcomment.titles, { message: 'the filtered list, most commented first' })

      await page.reload()
      await waitForShell(page)
      assert.deepEqual(query(page), want, 'the reload keeps the URL')
      await expectEventually(() => listTitles(page), ORDERS.mostcomment.titles, { message: 'the filtered list after the reload' })
      await assertFilterBar(page, f)
      await expectVisible(filterBar(page).group.getByRole('button', { name: 'Clear filters' }))

      const bar = filterBar(page)
      await assertLegible(bar.group.getByText('Milestone', { exact: true }), `${variant.label}: a filter's label`)
      await assertLegible(bar.sort, `${variant.label}: the sort select`)
      await assertLegible(page.locator('ul.issue-list .issue-row-title').first(), `${variant.label}: an issue's title`)
      for (const [what, el] of [['author', bar.author], ['assignee', bar.assignee], ['milestone', bar.milestone], ['labels', bar.labels.locator('summary')], ['sort', bar.sort]]) {
        await assertOnScreen(page, el, `${variant.label}: the ${what} filter`)
      }
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  test('each of the four orders chosen in the bar orders the filtered issues, is kept in the URL and holds across a reload', LONG, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, { viewport: DESKTOP, theme: 'dark-warm' })
    await open(page, `${repoPath()}/issues`, 'dark-warm')
    await setFilters(page, { ...issueFilters(), sort: ORDERS.oldest.label })
    for (const key of ['recentupdate', 'mostcomment', 'newest', 'oldest']) {
      const { label, titles } = ORDERS[key]
      await filterBar(page).sort.selectOption({ label })
      await expectEventually(() => listTitles(page), titles, { message: `the issues ordered ${label}` })
      // Newest is the default, which the URL leaves out.
      assert.equal(query(page).sort, key === 'newest' ? undefined : key)
      await page.reload()
      await waitForShell(page)
      await expectEventually(() => listTitles(page), titles, { message: `the issues still ordered ${label} after a reload` })
      assert.equal(await filterBar(page).sort.locator('option:checked').textContent(), label)
      assert.equal(query(page).labels, 'bug,ui')
    }
    assert.deepEqual(pageErrors, [])
  })

  for (const variant of VARIANTS) {
    test(`${variant.label}: the pull request list's author, assignee, milestone, two labels and "Oldest" set in the bar are kept in the URL and hold across a reload`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, `${repoPath()}/pulls`, variant.theme)
      const open4 = [PULLS.tweak.title, PULLS.polish.title, PULLS.oneLabel.title, ALICE_PULL.title].sort()
      await expectEventually(async () => (await listTitles(page)).sort(), open4, { message: 'the four open pull requests listed' })
      const f = { ...issueFilters(), sort: 'Oldest' }
      await setFilters(page, f)
      const want = { assignee: s.alice.login, author: s.bob.login, labels: 'bug,ui', milestone: 'v1', sort: 'oldest' }
      await expectEventually(() => query(page), want, { message: 'the filters in the URL' })
      const titles = [PULLS.tweak.title, PULLS.polish.title]
      await expectEventually(() => listTitles(page), titles, { message: 'the filtered pull requests, oldest first' })

      await page.reload()
      await waitForShell(page)
      assert.deepEqual(query(page), want, 'the reload keeps the URL')
      await expectEventually(() => listTitles(page), titles, { message: 'the filtered pull requests after the reload' })
      await assertFilterBar(page, f)

      // Back to newest, the default: the order turns and the URL drops sort.
      await filterBar(page).sort.selectOption({ label: 'Newest' })
      await expectEventually(() => listTitles(page), [...titles].reverse(), { message: 'the filtered pull requests, newest first' })
      assert.equal(query(page).sort, undefined)

      const bar = filterBar(page)
      await assertLegible(bar.group.getByText('Assignee', { exact: true }), `${variant.label}: a filter's label`)
      await assertLegible(page.locator('ul.issue-list .issue-row-title').first(), `${variant.label}: a pull request's title`)
      for (const [what, el] of [['author', bar.author], ['labels', bar.labels.locator('summary')], ['sort', bar.sort]]) {
        await assertOnScreen(page, el, `${variant.label}: the ${what} filter`)
      }
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  // Item 14a: a transfer notification shows the amount in DFG.

  for (const variant of VARIANTS) {
    test(`${variant.label}: bob's notification of alice's transfer says "Transfer received: 25 DFG", never micro-units`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      await open(page, '/notifications', variant.theme)
      const link = page.getByRole('main').getByRole('link', { name: 'Transfer received: 25 DFG', exact: true })
      await expectVisible(link)
      const row = page.locator('li.notification-row').filter({ has: page.getByRole('link', { name: 'Transfer received: 25 DFG', exact: true }) })
      assert.equal(await row.locator('.notification-kind').textContent(), 'Transfer')
      const text = await page.getByRole('main').textContent()
      assert.doesNotMatch(text, /micro/i, 'no amount is given in micro-units')
      assert.doesNotMatch(text, /25000000|25,000,000/, 'no amount is given in the chain\'s units')
      await assertLegible(link, `${variant.label}: the transfer notification`)
      await assertOnScreen(page, link, `${variant.label}: the transfer notification`)
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  // Item 14c: the events page says how to become an organizer.

  /** Asserts the organizer hint and its link on /events for who; follows the link and checks the prefilled role proposal. */
  async function assertOrganizerHint(page, variant, who) {
    await open(page, '/events', variant.theme)
    const hint = page.getByText('Only event organizers can create events. The role is granted by a governance vote.')
    await expectVisible(hint)
    await expectHidden(page.getByRole('button', { name: 'New event', exact: true }))
    const link = page.getByRole('link', { name: 'Propose yourself as an event organizer', exact: true })
    await expectVisible(link)
    const href = new URL(await link.getAttribute('href'), env.node.url)
    assert.equal(href.pathname, '/governance/new')
    const q = Object.fromEntries(href.searchParams)
    assert.deepEqual({ ...q, account: q.account?.toLowerCase() }, { type: 'role', role: 'event_organizer', action: 'grant', account: who.address.toLowerCase() })
    await assertLegible(hint, `${variant.label}: the organizer hint`)
    await assertLegible(link, `${variant.label}: the role proposal link`)
    await assertOnScreen(page, link, `${variant.label}: the role proposal link`)
    await assertNoSidewaysScroll(page, variant.label)

    await link.click()
    await page.waitForURL((u) => u.pathname === '/governance/new')
    const form = page.getByRole('form', { name: 'Create proposal' })
    await expectVisible(form)
    assert.equal(await form.getByLabel('Type', { exact: true }).inputValue(), 'role')
    assert.equal(await form.getByLabel('Role', { exact: true }).inputValue(), 'event_organizer')
    assert.equal(await form.getByLabel('Action', { exact: true }).inputValue(), 'grant')
    assert.equal((await form.getByLabel('Account', { exact: true }).inputValue()).toLowerCase(), who.address.toLowerCase())
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: the events page tells a signed-in user how to become an organizer, linking to the role proposal prefilled for them`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      await assertOrganizerHint(page, variant, s.bob)
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of [VARIANTS[0], VARIANTS[3]]) {
    test(`${variant.label}: the admin is told too how to become an event organizer`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, '/events', variant.theme)
      // alice is this node's admin.
      const me = await api(page, 'GET', '/user', undefined, 200)
      assert.equal(me.is_admin, true, 'alice is an admin of the node')
      await assertOrganizerHint(page, variant, s.alice)
      assert.deepEqual(pageErrors, [])
    })
  }

  // Item 14e: Help's popular articles follow the language.

  for (const variant of VARIANTS) {
    test(`${variant.label}: with German picked in the header, Help's "Popular articles" are German`, TIMEOUT, async (t) => {
      const de = localeFile('de', 'help').popular
      const en = localeFile('en', 'help').popular
      const { page, pageErrors } = await view(t, env.browser, env.node.url, null, variant)
      await open(page, '/help', variant.theme)
      await expectVisible(page.getByRole('region', { name: en.title, exact: true }).getByRole('link').first())
      const select = await languageSelect(page, variant)
      await select.selectOption({ label: 'Deutsch' })
      if (variant.viewport === PHONE) await page.keyboard.press('Escape')

      /** Asserts every popular article is listed under its German title. */
      const assertGerman = async () => {
        const popular = page.getByRole('region', { name: de.title, exact: true })
        await expectVisible(popular.getByRole('link').first())
        const links = await popular.getByRole('link').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent.trim()]))
        assert.ok(links.length >= 5, `the popular articles are listed (${links.length})`)
        for (const [href, text] of links) {
          const slug = href.replace(/^\/docs\//, '')
          assert.ok(de.articles[slug], `${slug} has a German title in de/help.json`)
          assert.equal(text, de.articles[slug], `${slug} is titled in German`)
        }
        // At least the articles whose names differ in German read so.
        assert.ok(links.some(([href, text]) => text !== en.articles[href.replace(/^\/docs\//, '')]), 'some titles differ from the English ones')
        await assertLegible(popular.getByRole('link').first(), `${variant.label}: a popular article`)
        await assertOnScreen(page, popular, `${variant.label}: the popular articles`)
      }
      await assertGerman()
      await page.reload()
      await waitForShell(page)
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'de')
      await assertGerman()
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  // Item 14f: a 404's tab title names what is missing.

  for (const variant of VARIANTS) {
    test(`${variant.label}: an unknown page's tab reads "Page not found · dForge", a missing repository's "Repository not found · dForge"`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      const res = await page.goto('/no-such-page')
      assert.equal(res.status(), 404)
      await waitForShell(page)
      for (const [path, title] of [['/no-such-page', 'Page not found'], [`/${s.alice.login}/no-such-repo`, 'Repository not found']]) {
        if (path !== '/no-such-page') await open(page, path, variant.theme)
        const heading = page.getByRole('heading', { name: title, exact: true, level: 1 })
        await expectVisible(heading)
        await expectEventually(() => page.title(), `${title} · dForge`, { message: `the tab title of ${path}` })
        await assertLegible(heading, `${variant.label}: ${title}`)
        await assertOnScreen(page, heading, `${variant.label}: ${title}`)
        await assertNoSidewaysScroll(page, `${variant.label}: ${path}`)
      }
      assert.deepEqual(pageErrors, [])
    })
  }

  test('a missing user, issue, pull request, event and proposal each name themselves in the tab title', TIMEOUT, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, null)
    const missing = [
      ['/user/nobody-here', 'User not found'],
      [`${repoPath()}/issues/999`, 'Issue #999 not found'],
      [`${repoPath()}/pulls/999`, 'Pull request not found'],
      ['/events/999', 'Event not found'],
      ['/governance/999', 'Proposal not found'],
    ]
    for (const [path, title] of missing) {
      await open(page, path)
      await expectVisible(page.getByRole('heading', { name: title, exact: true, level: 1 }))
      await expectEventually(() => page.title(), `${title} · dForge`, { message: `the tab title of ${path}` })
    }
    assert.deepEqual(pageErrors, [])
  })
})
