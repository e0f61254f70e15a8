// Code search, against the real node and git (issue 25, item 8): an
// identifier pushed to a repository's default branch is found by the
// repository's own code search (/:owner/:repo/search) and by the Code tab
// of /search, with the file, the line (its match marked) and a language
// filter; a private repository's code is found only by its readers. Each
// view runs at 1280 and 390 px in both themes.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { expectEventually, expectHidden, expectVisible, useNodeAndBrowser, TIMEOUT } from './harness.mjs'
import { api, assertLegible, assertNoSidewaysScroll, assertOnScreen, DESKTOP, git, open, remoteURL, session, signUp, VARIANTS, view, writeToken } from './people.mjs'

const env = useNodeAndBrowser()

// An identifier no other file on the node holds.
const WORD = 'frobnicateWheat'
const s = { alice: null, work: '' }

const GO = `package mill

// ${WORD} turns grain into flour.
func ${WORD}(grams int) int {
	return grams * 9 / 10
}
`
const PY = `from mill import ${WORD}


def sift(grams):
    return ${WORD}(grams)
`

/** Pushes files (path -> text) to the main branch of alice's repository name, with git. */
async function pushFiles(page, name, files) {
  const token = await writeToken(page, s.alice.login)
  const dir = join(s.work, name)
  git(s.work, 'clone', '--quiet', remoteURL(env.node.url, s.alice.login, name, s.alice.login, token), name)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  git(dir, 'add', '.')
  git(dir, 'commit', '--quiet', '-m', `Add ${Object.keys(files).join(', ')}`)
  git(dir, 'push', '--quiet', 'origin', 'main')
}

/** The paths a code search answers, once the index has them. */
async function indexed(page, path, want) {
  await expectEventually(
    async () => {
      const body = await api(page, 'GET', `${path}?q=${WORD}`)
      return (body?.items ?? []).map((h) => `${h.repository.full_name}:${h.path}`).sort()
    },
    want,
    { timeout: 30_000, message: `${path} to find ${want.join(', ')}` },
  )
}

describe('code search', () => {
  before(async () => {
    s.alice = await signUp(env.browser, env.node.url)
    s.work = mkdtempSync(join(tmpdir(), 'dforge-e2e-search-'))
    const a = await session(env.browser, env.node.url, s.alice)
    try {
      await api(a.page, 'POST', '/user/repos', { name: 'mill', auto_init: true }, 201)
      await api(a.page, 'POST', '/user/repos', { name: 'vault', auto_init: true, private: true }, 201)
      await pushFiles(a.page, 'mill', { 'mill/grind.go': GO, 'tools/sift.py': PY })
      await pushFiles(a.page, 'vault', { 'secret.go': `package vault\n\nvar recipe = ${WORD}\n` })
      const o = s.alice.login
      await indexed(a.page, `/repos/${o}/mill/search/code`, [`${o}/mill:mill/grind.go`, `${o}/mill:tools/sift.py`])
      await indexed(a.page, '/search/code', [`${o}/mill:mill/grind.go`, `${o}/mill:tools/sift.py`, `${o}/vault:secret.go`])
    } finally {
      await a.close()
    }
  })
  after(() => {
    if (s.work) rmSync(s.work, { recursive: true, force: true })
  })

  const results = (page) => page.getByRole('list', { name: 'Search results' })

  for (const variant of VARIANTS) {
    test(`${variant.label}: a repository's code search finds the pushed identifier, marks it on its line and filters by language`, TIMEOUT, async (t) => {
      const o = s.alice.login
      const { page, pageErrors } = await view(t, env.browser, env.node.url, null, variant)
      await open(page, `/${o}/mill/search`, variant.theme)
      await expectVisible(page.getByRole('heading', { name: 'Search code' }))
      await page.getByLabel('Search code in this repository').fill(WORD)
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
      await expectEventually(() => new URL(page.url()).searchParams.get('q'), WORD, { message: 'the query in the URL' })

      const list = results(page)
      await expectVisible(list)
      const files = async () => (await list.getByRole('link').filter({ hasNotText: /^\d+$/ }).allTextContents()).sort()
      await expectEventually(files, ['mill/grind.go', 'tools/sift.py'])
      const lines = list.getByRole('list', { name: 'Matching lines in mill/grind.go' })
      const line = lines.getByRole('listitem').filter({ hasText: `func ${WORD}(grams int) int {` })
      await expectVisible(line)
      const number = line.getByRole('link', { name: 'Line 4' })
      assert.equal(await number.getAttribute('href'), `/${o}/mill/src/mill/grind.go#L4`)
      const mark = line.locator('mark')
      assert.equal(await mark.textContent(), WORD, 'the match is marked')
      await assertLegible(mark, `${variant.label}: the marked match`)
      await assertOnScreen(page, list.getByRole('link', { name: 'mill/grind.go' }), `${variant.label}: a result's file`)
      await assertNoSidewaysScroll(page, variant.label)

      // The language filter: each language with its count; Go leaves the Go file.
      const language = page.locator('main').getByLabel('Language', { exact: true })
      assert.deepEqual(await language.evaluate((el) => [...el.options].map((o) => o.textContent)), ['Any language', 'Go (1)', 'Python (1)'])
      await language.selectOption('Go')
      await expectEventually(files, ['mill/grind.go'])
      assert.equal(new URL(page.url()).searchParams.get('language'), 'Go')

      // A result opens the file.
      await list.getByRole('link', { name: 'mill/grind.go' }).click()
      await page.waitForURL((u) => u.pathname === `/${o}/mill/src/mill/grind.go`)
      await expectVisible(page.getByText(`// ${WORD} turns grain into flour.`))
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: the Code tab of /search finds the identifier across repositories, the owner's private one included, and narrows to one repository`, TIMEOUT, async (t) => {
      const o = s.alice.login
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, '/search', variant.theme)
      await page.getByRole('search').getByLabel('Search dForge').fill(WORD)
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click()
      const code = page.getByRole('tab', { name: 'Code' })
      await code.click()
      assert.equal(await code.getAttribute('aria-selected'), 'true')
      await expectEventually(() => new URL(page.url()).searchParams.get('type'), 'code', { message: 'the tab in the URL' })
      const list = results(page)
      await expectVisible(list)
      const hit = list.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'mill/grind.go', exact: true }) })
      await expectVisible(hit.getByRole('link', { name: `${o}/mill`, exact: true }))
      assert.equal(await hit.locator('mark').first().textContent(), WORD)
      await expectVisible(list.getByRole('link', { name: 'secret.go', exact: true }))
      await expectVisible(list.getByRole('link', { name: `${o}/vault`, exact: true }))
      await assertLegible(hit.locator('mark').first(), `${variant.label}: the marked match`)
      await assertOnScreen(page, hit.getByRole('link', { name: 'mill/grind.go' }), `${variant.label}: a result's file`)
      await assertNoSidewaysScroll(page, variant.label)

      // The repository filter narrows the search to one, in the URL, and comes off again.
      const repo = page.getByRole('combobox', { name: 'Repository' })
      await assertOnScreen(page, repo, `${variant.label}: the repository filter`)
      await repo.fill(`${o}/vault`)
      await repo.press('Enter')
      await expectEventually(() => new URL(page.url()).searchParams.get('repo'), `${o}/vault`, { message: 'the repository in the URL' })
      await expectVisible(list.getByRole('link', { name: 'secret.go', exact: true }))
      await expectHidden(list.getByRole('link', { name: 'mill/grind.go', exact: true }))
      await page.getByRole('button', { name: 'All repositories' }).click()
      await expectVisible(list.getByRole('link', { name: 'mill/grind.go', exact: true }))
      assert.equal(new URL(page.url()).searchParams.get('repo'), null)
      assert.deepEqual(pageErrors, [])
    })
  }

  test('someone who cannot read the private repository does not find its code', TIMEOUT, async (t) => {
    const o = s.alice.login
    const { page, pageErrors } = await view(t, env.browser, env.node.url, null, { viewport: DESKTOP, theme: 'light' })
    await open(page, `/search?q=${WORD}&type=code`, 'light')
    const list = results(page)
    await expectVisible(list.getByRole('link', { name: 'mill/grind.go', exact: true }))
    await expectVisible(list.getByRole('link', { name: 'tools/sift.py', exact: true }))
    await expectHidden(list.getByRole('link', { name: 'secret.go' }))
    await expectHidden(list.getByRole('link', { name: `${o}/vault` }))
    const body = await api(page, 'GET', `/search/code?q=${WORD}`, undefined, 200)
    assert.deepEqual(body.items.map((h) => h.repository.full_name).sort(), [`${o}/mill`, `${o}/mill`])
    assert.deepEqual(pageErrors, [])
  })
})
