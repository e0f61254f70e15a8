// The first minute in dForge, against the real node and git (issue 25,
// items 7, 12, 13 and 1): a repository's home has its latest-commit bar
// over the files, "Go to file" on t with fuzzy matching, the keyboard
// shortcuts / t g i g p ?, a clone box with the whole URL and a copy
// button, and SVG file icons (never emoji); a fresh account is offered a
// username right after its first sign-in, checked as it is typed, and may
// skip it; the forum's New topic is a button at the top right that opens
// the composer, and its search box looks like the app's other inputs; the
// signed-in header is one row on a desktop, covers no heading, and its
// Settings is a link; Home's quick actions are links too, the picker's
// included. Each view runs at 1280 and 390 px in both themes.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { EXPECT_TIMEOUT, expectEventually, expectHidden, expectVisible, useNodeAndBrowser, waitDelegated, waitFor, TIMEOUT } from './harness.mjs'
import { api, assertLegible, assertNoSidewaysScroll, assertOnScreen, defaultName, DESKTOP, git, open, remoteURL, session, signUp, THEMES, VARIANTS, view, writeToken } from './people.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const env = useNodeAndBrowser()

// alice owns the repository; bob reads it and uses the forum.
const s = { alice: null, bob: null, work: '', repo: 'engine' }

// The pushed tree: directories, code, text and an image at the top, and a
// file three directories down that "Go to file" finds from a few letters.
const FILES = {
  'README.md': '# Engine\n\nA small storage engine.\n',
  'main.go': 'package main\n\nfunc main() {}\n',
  'logo.png': 'not really a png\n',
  'internal/storage/engine/compactor.go': '// Package engine compacts the log.\npackage engine\n',
  'internal/storage/engine/reader.go': 'package engine\n',
  'cmd/compose/main.go': 'package main\n',
  'docs/components.md': '# Components\n',
}
const NESTED = 'internal/storage/engine/compactor.go'
// Non-adjacent letters of NESTED: st(orage) eng(ine) c(o)m(p)...
const FUZZY = 'stengcmp'
const SUBJECT = 'Add the storage engine'

// A name claimed in `before` (taken from then on) and one nobody holds.
const TAKEN = 'ada-lovelace'
const FREE = 'grace-hopper'

/** The 1440 px desktop of item 1, in both themes, with every variant. */
const HEADER_VARIANTS = [...THEMES.map((theme) => ({ viewport: { width: 1440, height: 900 }, theme, label: `1440 px, ${theme}` })), ...VARIANTS]

const home = () => `/${s.alice.login}/${s.repo}`
const EMOJI = /\p{Extended_Pictographic}/u

/**
 * Signs a fresh wallet in on page (from view(), at its variant; theme, if
 * given, is checked) as a person does: the header's Login, the wallet, its
 * two signatures. Returns { login, wallet }.
 */
async function signInFresh(page, theme, path = '/explore') {
  const wallet = headlessWallet(generatePrivateKey())
  await wallet.install(page)
  await open(page, path, theme)
  await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectHidden(page.getByRole('dialog'))
  return { login: defaultName(wallet.address), wallet }
}

/** The prompt a fresh account sees. */
const prompt = (page) => page.getByRole('region', { name: 'Choose your username' })

/** The viewport box of a locator's first match. */
async function box(locator) {
  const b = await locator.first().boundingBox()
  assert.ok(b, `${locator} has a box`)
  return b
}

/** The header's Settings link: in the row on a desktop, in the Menu drawer on a phone. */
async function settingsLink(page) {
  const header = page.locator('header')
  const inRow = header.getByRole('link', { name: 'Settings', exact: true })
  if (await inRow.first().isVisible()) return inRow.first()
  await header.getByRole('button', { name: 'Menu', exact: true }).click()
  const inDrawer = header.locator('.header-drawer').getByRole('link', { name: 'Settings', exact: true })
  await expectVisible(inDrawer)
  return inDrawer.first()
}

/** The styles that make an input look like the app's inputs. */
const inputLook = (locator) =>
  locator.first().evaluate((el) => {
    const c = getComputedStyle(el)
    return {
      height: Math.round(el.getBoundingClientRect().height),
      borderTopWidth: c.borderTopWidth,
      borderTopStyle: c.borderTopStyle,
      borderTopColor: c.borderTopColor,
      borderRadius: c.borderRadius,
      backgroundColor: c.backgroundColor,
      color: c.color,
      fontSize: c.fontSize,
      paddingLeft: c.paddingLeft,
    }
  })

describe('the first minute', () => {
  before(async () => {
    s.alice = await signUp(env.browser, env.node.url)
    s.bob = await signUp(env.browser, env.node.url)
    const a = await session(env.browser, env.node.url, s.alice)
    try {
      await api(a.page, 'POST', '/user/repos', { name: s.repo, auto_init: true }, 201)
      const token = await writeToken(a.page, s.alice.login)
      s.work = mkdtempSync(join(tmpdir(), 'dforge-e2e-first-minute-'))
      git(s.work, 'clone', '--quiet', remoteURL(env.node.url, s.alice.login, s.repo, s.alice.login, token), s.repo)
      const clone = join(s.work, s.repo)
      for (const [path, content] of Object.entries(FILES)) {
        mkdirSync(join(clone, path, '..'), { recursive: true })
        writeFileSync(join(clone, path), content)
      }
      git(clone, 'add', '.')
      git(clone, 'commit', '--quiet', '-m', SUBJECT)
      git(clone, 'push', '--quiet', 'origin', 'main')
    } finally {
      await a.close()
    }
    // bob has skipped the username prompt (as the variants below show one may): the forum and the header are seen as most people see them.
    const b = await session(env.browser, env.node.url, s.bob)
    try {
      await b.page.getByRole('region', { name: 'Choose your username' }).getByRole('button', { name: 'Skip', exact: true }).click()
      await expectHidden(prompt(b.page))
      s.bob = { ...s.bob, state: await b.page.context().storageState() }
    } finally {
      await b.close()
    }

    // Someone claims TAKEN from the prompt, as the variants' fresh accounts would.
    const context = await env.browser.newContext({ baseURL: env.node.url, serviceWorkers: 'block', viewport: DESKTOP })
    try {
      context.setDefaultTimeout(EXPECT_TIMEOUT)
      const page = await context.newPage()
      await signInFresh(page)
      const card = prompt(page)
      await card.getByRole('textbox', { name: 'Username' }).fill(TAKEN)
      await expectVisible(card.getByText(`${TAKEN} is available.`))
      await card.getByRole('button', { name: 'Claim username' }).click()
      await expectEventually(async () => (await fetch(`${env.node.url}/api/v1/users/${TAKEN}`)).status, 200, { timeout: 30_000, message: `the node to know ${TAKEN}` })
      // Once the name is claimed, the prompt has done its work: its place says so until closed, and the header names the account by it.
      await expectHidden(card, 20_000)
      const claimed = page.getByRole('region', { name: 'Username claimed' })
      await expectVisible(claimed.getByRole('status').filter({ hasText: `Your username is now ${TAKEN}.` }))
      await expectVisible(page.locator('header').getByRole('link', { name: TAKEN, exact: true }))
      await claimed.getByRole('button', { name: 'Close', exact: true }).click()
      await expectHidden(claimed)
    } finally {
      await context.close()
    }
  })
  after(() => {
    if (s.work) rmSync(s.work, { recursive: true, force: true })
  })

  // --- item 7: the repository's home ---------------------------------------

  for (const variant of VARIANTS) {
    test(`${variant.label}: the repository home shows the latest commit above the files, the whole clone URL with a working copy button, and SVG file icons, no emoji`, TIMEOUT, async (t) => {
      const { context, page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.node.url })
      await open(page, home(), variant.theme)

      // The latest-commit bar: the subject, its short id, and the history count.
      const bar = page.getByRole('region', { name: 'Latest commit' })
      await expectVisible(bar.getByRole('link', { name: SUBJECT }))
      await expectVisible(bar.getByRole('link', { name: /^Commit [0-9a-f]{7,}$/ }))
      await expectVisible(bar.getByRole('link', { name: '2 commits' }))
      await assertLegible(bar.getByRole('link', { name: SUBJECT }), `${variant.label}: the latest commit's subject`)
      await assertOnScreen(page, bar.getByRole('link', { name: '2 commits' }), `${variant.label}: the history link`)
      const files = page.getByRole('table', { name: `Files in ${s.repo}` })
      await expectVisible(files.getByRole('link', { name: 'README.md', exact: true }))
      await page.evaluate(() => window.scrollTo(0, 0))
      const [b, f] = [await box(bar), await box(files)]
      assert.ok(b.y + b.height <= f.y + 1, `${variant.label}: the latest-commit bar (${b.y}–${b.y + b.height}) is above the file list (${f.y})`)

      // Every entry has its icon, drawn as SVG by kind; the list holds no emoji.
      const rows = files.locator('tbody tr')
      await expectVisible(files.getByRole('link', { name: 'internal', exact: true }))
      const icons = await rows.evaluateAll((trs) =>
        trs.map((tr) => {
          const icon = tr.querySelector('td:first-child .file-icon')
          return {
            name: tr.querySelector('td:first-child a')?.textContent,
            svg: icon?.namespaceURI === 'http://www.w3.org/2000/svg' && icon.tagName.toLowerCase() === 'svg',
            kind: icon?.getAttribute('class')?.replace('file-icon', '').trim(),
            width: icon?.getBoundingClientRect().width ?? 0,
          }
        }),
      )
      const byName = Object.fromEntries(icons.map((i) => [i.name, i]))
      for (const name of ['cmd', 'docs', 'internal', 'README.md', 'main.go', 'logo.png']) {
        assert.ok(byName[name], `${name} is listed (${JSON.stringify(icons)})`)
        assert.equal(byName[name].svg, true, `${variant.label}: ${name}'s icon is an SVG`)
        assert.ok(byName[name].width > 0, `${variant.label}: ${name}'s icon is drawn`)
      }
      assert.equal(byName.internal.kind, 'file-icon-dir')
      assert.equal(byName['main.go'].kind, 'file-icon-code')
      assert.equal(byName['README.md'].kind, 'file-icon-text')
      assert.equal(byName['logo.png'].kind, 'file-icon-image')
      const text = await files.innerText()
      assert.doesNotMatch(text, EMOJI, `${variant.label}: the file list has no emoji: ${JSON.stringify(text.match(EMOJI))}`)

      // The clone box: the whole URL, and Copy puts it on the clipboard.
      const url = `${env.node.url}/${s.alice.login}/${s.repo}.git`
      const clone = page.getByRole('textbox', { name: 'Clone over HTTP' })
      await expectVisible(clone)
      assert.equal(await clone.inputValue(), url, 'the clone box holds the whole URL')
      await assertOnScreen(page, clone, `${variant.label}: the clone box`)
      if (variant.viewport === DESKTOP) {
        const fits = await clone.evaluate((el) => el.scrollWidth <= el.clientWidth)
        assert.equal(fits, true, `${variant.label}: the whole URL is visible in the box, not cut off`)
      }
      const copy = page.locator('.clone-box').getByRole('button', { name: 'Copy', exact: true })
      await assertOnScreen(page, copy, `${variant.label}: the copy button`)
      await assertLegible(copy, `${variant.label}: the copy button`)
      await copy.click()
      await expectVisible(page.locator('.clone-box').getByRole('status').getByText('Copied to the clipboard.'))
      await expectVisible(page.locator('.clone-box').getByRole('button', { name: 'Copied', exact: true }))
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url, 'the clipboard holds the whole clone URL')

      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: t opens "Go to file", a few non-adjacent letters find a nested file, and Enter opens it`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, home(), variant.theme)
      await expectVisible(page.getByRole('table', { name: `Files in ${s.repo}` }))
      await page.keyboard.press('t')
      const dialog = page.getByRole('dialog', { name: 'Go to file' })
      await expectVisible(dialog)
      const input = dialog.getByRole('combobox', { name: 'Find a file on main' })
      await expectVisible(input)
      assert.equal(await input.evaluate((el) => el === document.activeElement), true, 'focus is in the finder')
      await expectVisible(dialog.getByRole('status').getByText(`${Object.keys(FILES).length} files.`))
      await page.keyboard.type(FUZZY)
      const best = dialog.getByRole('option', { name: NESTED, selected: true })
      await expectVisible(best)
      // The list follows the typing a render behind (a deferred value), so the
      // marks are waited for: once they spell every letter, the list answers the
      // whole query.
      await expectEventually(async () => (await best.locator('mark').allTextContents()).join(''), FUZZY, {
        message: 'the matched letters marked in the result',
      })
      // Only the nested file holds those letters in order.
      assert.deepEqual(await dialog.getByRole('option').allTextContents(), [NESTED])
      await expectVisible(dialog.getByRole('status').getByText('1 file matches.'))
      assert.equal(await best.locator('svg.file-icon').count(), 1, 'the result has its SVG icon')
      assert.doesNotMatch(await dialog.innerText(), EMOJI)
      await assertOnScreen(page, best, `${variant.label}: the match`)
      await assertLegible(best.locator('span.mono'), `${variant.label}: the match`)
      await assertNoSidewaysScroll(page, variant.label)
      await page.keyboard.press('Enter')
      await page.waitForURL((u) => u.pathname === `${home()}/src/${NESTED}`)
      await expectVisible(page.getByText('// Package engine compacts the log.'))
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: the keyboard shortcuts: ? lists them, / focuses the search, g i goes to the issues and g p to the pull requests`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, home(), variant.theme)
      await expectVisible(page.getByRole('table', { name: `Files in ${s.repo}` }))

      // ?: the list of shortcuts, in a dialog that Escape closes.
      await page.keyboard.press('?')
      const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
      await expectVisible(list)
      const entries = await list.locator('.shortcut-list > div').evaluateAll((ds) => ds.map((d) => [d.querySelector('dt').textContent.replace(/\s+/g, ' ').trim(), d.querySelector('dd').textContent.trim()]))
      for (const [keys, what] of [
        ['/', 'Focus the search box (on pages without one, go to a file)'],
        ['t', 'Go to file'],
        ['g then i', 'Go to the issues'],
        ['g then p', 'Go to the pull requests'],
        ['?', 'Show these shortcuts'],
      ]) {
        assert.ok(entries.some(([k, w]) => k === keys && w === what), `${variant.label}: the list has "${keys}: ${what}" (${JSON.stringify(entries)})`)
      }
      await assertOnScreen(page, list, `${variant.label}: the shortcuts dialog`)
      await assertLegible(list.locator('dd').first(), `${variant.label}: a shortcut's description`)
      await page.keyboard.press('Escape')
      await expectHidden(list)

      // /: the repository's search box takes the focus (and the key is not typed into it).
      await page.evaluate(() => document.activeElement?.blur?.())
      await page.keyboard.press('/')
      const search = page.getByRole('searchbox', { name: 'Search code in this repository' })
      await waitFor(() => search.evaluate((el) => el === document.activeElement), { message: '/ to focus the code search' })
      assert.equal(await search.inputValue(), '', 'the / is not typed into the box')
      // While typing in it, t is a letter, not a shortcut.
      await page.keyboard.type('tgi')
      assert.equal(await search.inputValue(), 'tgi')
      assert.equal(new URL(page.url()).pathname, home())
      await expectHidden(page.getByRole('dialog', { name: 'Go to file' }))

      // g i: the issues.
      await search.fill('')
      await page.evaluate(() => document.activeElement?.blur?.())
      await page.keyboard.press('g')
      await page.keyboard.press('i')
      await page.waitForURL((u) => u.pathname === `${home()}/issues`)
      await expectVisible(page.getByRole('searchbox', { name: 'Search issues' }))

      // g p: the pull requests, from the home page again.
      await open(page, home(), variant.theme)
      await expectVisible(page.getByRole('table', { name: `Files in ${s.repo}` }))
      await page.keyboard.press('g')
      await page.keyboard.press('p')
      await page.waitForURL((u) => u.pathname === `${home()}/pulls`)
      await expectVisible(page.getByRole('searchbox', { name: 'Search pull requests' }))
      assert.deepEqual(pageErrors, [])
    })
  }

  // --- item 12: a name right after the first sign-in -----------------------

  for (const variant of VARIANTS) {
    test(`${variant.label}: right after the first sign-in a fresh account is offered a username, checked as it is typed, and may skip it`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, null, variant)
      const { login } = await signInFresh(page, variant.theme)
      const card = prompt(page)
      await expectVisible(card)
      await expectVisible(card.getByText(`You are ${login} for now.`, { exact: false }))
      await assertOnScreen(page, card.getByRole('heading', { name: 'Choose your username' }), `${variant.label}: the prompt's heading`)
      await assertLegible(card.getByRole('heading', { name: 'Choose your username' }), `${variant.label}: the prompt's heading`)
      const field = card.getByRole('textbox', { name: 'Username' })
      const claim = card.getByRole('button', { name: 'Claim username' })
      const verdict = card.getByRole('status').first()
      assert.equal(await claim.isDisabled(), true, 'nothing to claim yet')

      // A taken name says so, and cannot be claimed.
      await field.fill(TAKEN)
      // In the app's own words, in every language: never the node's English reason.
      await expectEventually(() => verdict.textContent(), `${TAKEN} is already taken.`, { message: 'the taken verdict' })
      assert.equal(await field.getAttribute('aria-invalid'), 'true')
      assert.equal(await claim.isDisabled(), true, 'a taken name cannot be claimed')
      await assertLegible(verdict, `${variant.label}: "already taken"`)

      // A free one says available, and may be claimed.
      await field.fill(FREE)
      await expectEventually(() => verdict.textContent(), `${FREE} is available.`, { message: 'the available verdict' })
      assert.equal(await field.getAttribute('aria-invalid'), null)
      assert.equal(await claim.isEnabled(), true, 'a free name may be claimed')
      await assertLegible(verdict, `${variant.label}: "is available"`)
      await assertOnScreen(page, claim, `${variant.label}: Claim username`)
      await assertNoSidewaysScroll(page, variant.label)

      // Skip: the prompt goes, and stays gone after a reload; the name is unchanged.
      await card.getByRole('button', { name: 'Skip', exact: true }).click()
      await expectHidden(card)
      await page.reload()
      await expectVisible(page.locator('header .brand'))
      await expectVisible(page.getByRole('heading', { level: 1 }))
      await expectHidden(prompt(page))
      const me = await api(page, 'GET', '/user', undefined, 200)
      assert.equal(me.login, login, 'skipping claims nothing')
      assert.deepEqual(pageErrors, [])
    })
  }

  // --- item 13: the forum ---------------------------------------------------

  for (const variant of VARIANTS) {
    test(`${variant.label}: the forum's New topic is a button at the top right that opens the composer, and its search looks like the app's other inputs`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      // The issue list's search, for comparison, in the same variant.
      await open(page, `${home()}/issues`, variant.theme)
      const issueSearch = page.getByRole('searchbox', { name: 'Search issues' })
      await expectVisible(issueSearch)
      const reference = await inputLook(issueSearch)

      await open(page, '/forum', variant.theme)
      const heading = page.getByRole('heading', { name: 'Forum', level: 1 })
      await expectVisible(heading)
      const button = page.getByRole('main').getByRole('button', { name: 'New topic', exact: true })
      await expectVisible(button)
      const search = page.getByRole('searchbox', { name: 'Search topics' })
      await expectVisible(search)
      const tabs = page.getByRole('tablist', { name: 'Forum categories' })
      await expectVisible(tabs)
      await page.evaluate(() => window.scrollTo(0, 0))
      const [h, bt, se, tb] = [await box(heading), await box(button), await box(search), await box(tabs)]
      const { width, height } = page.viewportSize()
      // At the top of the list: above the search and the topics, on the first screen, not below them.
      assert.ok(bt.y >= h.y - 1 && bt.y + bt.height <= se.y + 1 && bt.y < tb.y, `${variant.label}: New topic (y ${bt.y}) is between the heading (${h.y}) and the search (${se.y}), above the topics (${tb.y})`)
      assert.ok(bt.y + bt.height <= height / 2, `${variant.label}: New topic (y ${bt.y}) is in the top half of the ${height}px screen`)
      assert.ok(bt.x >= h.x, `${variant.label}: New topic (x ${bt.x}) does not start left of the heading (${h.x})`)
      if (variant.viewport === DESKTOP) {
        // Beside the heading, at the right end of the row, as on Discourse and GitHub Discussions.
        assert.ok(bt.y < h.y + h.height && bt.y + bt.height > h.y, `${variant.label}: New topic (y ${bt.y}–${bt.y + bt.height}) is on the heading's row (${h.y}–${h.y + h.height})`)
        assert.ok(bt.x > h.x + h.width / 2, `${variant.label}: New topic (x ${bt.x}) is right of the heading's start (${h.x})`)
      }
      // At the right end of its row, also where a phone wraps it below the heading.
      assert.ok(Math.abs(bt.x + bt.width - (tb.x + tb.width)) <= 2, `${variant.label}: New topic ends (${bt.x + bt.width}) where the list does (${tb.x + tb.width}), of ${width}px`)
      await assertLegible(button, `${variant.label}: New topic`)
      await assertOnScreen(page, button, `${variant.label}: New topic`)

      // The search looks like the issue list's.
      const look = await inputLook(search)
      assert.deepEqual(look, reference, `${variant.label}: the forum search looks like the issue search`)

      // New topic opens the composer; Escape closes it.
      await button.click()
      const composer = page.getByRole('dialog', { name: 'New topic' })
      await expectVisible(composer)
      await expectVisible(composer.getByRole('form', { name: 'New topic' }))
      await expectVisible(composer.getByRole('textbox', { name: 'Title' }))
      await expectVisible(composer.getByRole('combobox', { name: 'Category' }))
      await expectVisible(composer.getByRole('button', { name: 'Create topic' }))
      await assertOnScreen(page, composer.getByRole('textbox', { name: 'Title' }), `${variant.label}: the composer's title`)
      await page.keyboard.press('Escape')
      await expectHidden(composer)
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }

  // --- item 1: the signed-in header ------------------------------------------

  for (const variant of HEADER_VARIANTS) {
    test(`${variant.label}: signed in, the header is one row, covers no page's heading, and its Settings is a link to /settings`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      for (const path of [home(), `${home()}/issues`, '/forum', '/settings']) {
        await open(page, path, variant.theme)
        const heading = page.getByRole('main').locator('h1').first()
        await expectVisible(heading)
        // The header has settled into its signed-in row (the account's controls are there).
        await expectHidden(page.locator('header').getByRole('button', { name: 'Login', exact: true }))
        await page.evaluate(() => window.scrollTo(0, 0))
        const header = await box(page.locator('header.header'))
        assert.ok(header.height < 70, `${variant.label} ${path}: the header is one row (${header.height}px tall)`)
        const h1 = await box(heading)
        assert.ok(h1.y >= header.y + header.height, `${variant.label} ${path}: the header (bottom ${header.y + header.height}) covers the heading (top ${h1.y})`)
      }
      // Settings: a real link (it opens in a new tab, it can be copied) that leads to /settings.
      await open(page, home(), variant.theme)
      const link = await settingsLink(page)
      assert.equal(await link.evaluate((a) => a.tagName), 'A')
      assert.equal(await link.getAttribute('href'), '/settings')
      await assertOnScreen(page, link, `${variant.label}: Settings`)
      await link.click()
      await page.waitForURL((u) => u.pathname === '/settings')
      await expectVisible(page.getByRole('heading', { name: 'Settings', level: 1 }))
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }
  // Item 1: the quick actions on Home are real links. The two that ask for a
  // repository first open the picker in place, and their link, opened in a
  // new tab, lands on Home with the same picker open.
  for (const variant of VARIANTS) {
    test(`${variant.label}: Home's quick actions are links, and "Report issue" opened in a new tab asks for the repository there`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      await open(page, '/', variant.theme)
      const quick = page.getByRole('region', { name: 'Quick actions' })
      const want = { 'Create repository': '/new', 'Report issue': '/?new=issues', 'New pull request': '/?new=pulls', 'Create proposal': '/governance/new' }
      for (const [name, href] of Object.entries(want)) {
        const link = quick.getByRole('link', { name: new RegExp(`^${name}`) })
        await expectVisible(link)
        assert.equal(await link.getAttribute('href'), href, `${variant.label}: ${name}`)
        await assertOnScreen(page, link, `${variant.label}: ${name}`)
      }
      // A plain click opens the picker on this page and names it in the URL.
      await quick.getByRole('link', { name: /^Report issue/ }).click()
      const dialog = page.getByRole('dialog', { name: 'Report an issue' })
      await expectVisible(dialog)
      assert.equal(new URL(page.url()).search, '?new=issues')
      await page.keyboard.press('Escape')
      await expectHidden(dialog)
      assert.equal(new URL(page.url()).search, '')

      // The link in a tab of its own: Home with the picker open, and the repository picked leads to its new-issue form.
      const tab = await page.context().newPage()
      t.after(() => tab.close())
      await tab.goto(new URL('/?new=issues', env.node.url).href)
      const there = tab.getByRole('dialog', { name: 'Report an issue' })
      await expectVisible(there)
      await there.getByRole('searchbox', { name: 'Search repositories' }).fill(s.repo)
      await there.getByRole('link', { name: new RegExp(`${s.alice.login}/${s.repo}`) }).click()
      await tab.waitForURL((u) => u.pathname === `${home()}/issues/new`)
      await assertNoSidewaysScroll(page, variant.label)
      assert.deepEqual(pageErrors, [])
    })
  }
})
