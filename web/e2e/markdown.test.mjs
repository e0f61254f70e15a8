// Markdown as people write it, against the real node (issue 25, item 9):
// a task list renders as checkboxes, which the issue's author can tick (the
// tick is saved in the issue's text, and a reload shows it) and anyone else
// only sees; the web file editor previews a Markdown file as it will be
// shown. Each view runs at 1280 and 390 px in both themes.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { expectEventually, expectHidden, expectVisible, useNodeAndBrowser, TIMEOUT } from './harness.mjs'
import { api, assertLegible, assertNoSidewaysScroll, assertOnScreen, open, session, signUp, VARIANTS, view } from './people.mjs'

const env = useNodeAndBrowser()

// alice owns the repository and wrote the issue; bob only reads it.
const s = { alice: null, bob: null, issue: '' }
const BODY = 'Before the launch:\n\n- [ ] Write the docs\n- [x] Fix the build\n- [ ] Tell the team\n'

describe('markdown', () => {
  before(async () => {
    s.alice = await signUp(env.browser, env.node.url)
    s.bob = await signUp(env.browser, env.node.url)
    const a = await session(env.browser, env.node.url, s.alice)
    try {
      await api(a.page, 'POST', '/user/repos', { name: 'notes', auto_init: true }, 201)
      const files = [{ operation: 'create', path: 'main.go', content: Buffer.from('package main\n').toString('base64') }]
      await api(a.page, 'POST', `/repos/${s.alice.login}/notes/contents`, { branch: 'main', message: 'Add main.go', files }, 201)
      const issue = await api(a.page, 'POST', `/repos/${s.alice.login}/notes/issues`, { title: 'Launch checklist', body: BODY }, 201)
      s.issue = issue.number
    } finally {
      await a.close()
    }
  })

  const issuePath = () => `/${s.alice.login}/notes/issues/${s.issue}`
  const body = async () => (await (await fetch(`${env.node.url}/api/v1/repos/${s.alice.login}/notes/issues/${s.issue}`)).json()).body

  /** The opening post's task checkboxes, by their text. */
  const task = (page, name) => page.getByRole('main').getByRole('checkbox', { name, exact: true })

  /** Asserts the task list is drawn as checkboxes (no bullets), legible and on screen. */
  async function assertTaskList(page, variant) {
    await expectVisible(task(page, 'Write the docs'))
    assert.equal(await task(page, 'Fix the build').isChecked(), true, 'a done task is ticked')
    const item = page.getByRole('main').getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: 'Fix the build', exact: true }) })
    assert.equal(await item.evaluate((li) => getComputedStyle(li).listStyleType), 'none', 'a task has its checkbox, not a bullet')
    await assertLegible(item, `${variant.label}: a task's text`)
    await assertOnScreen(page, task(page, 'Tell the team'), `${variant.label}: a task's checkbox`)
    await assertNoSidewaysScroll(page, variant.label)
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: the author ticks a task of her issue and the tick is saved`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, issuePath(), variant.theme)
      await assertTaskList(page, variant)
      // Each run flips "Tell the team": ticked in one, cleared in the next.
      const box = task(page, 'Tell the team')
      const was = await box.isChecked()
      assert.equal(await box.isEnabled(), true, 'the author may tick it')
      await box.setChecked(!was)
      const marker = was ? '[ ]' : '[x]'
      await expectEventually(body, BODY.replace('- [ ] Tell the team', `- ${marker} Tell the team`), {
        timeout: 20_000,
        message: `the issue's text to say - ${marker} Tell the team`,
      })
      await page.reload()
      await expectVisible(task(page, 'Tell the team'))
      assert.equal(await task(page, 'Tell the team').isChecked(), !was, 'the reload shows the saved tick')
      assert.equal(await task(page, 'Write the docs').isChecked(), false, 'the other tasks are as they were')
      assert.equal(await task(page, 'Fix the build').isChecked(), true)
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: someone who may not edit the issue sees the task list but cannot tick it`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.bob, variant)
      await open(page, issuePath(), variant.theme)
      await assertTaskList(page, variant)
      for (const name of ['Write the docs', 'Fix the build', 'Tell the team']) assert.equal(await task(page, name).isDisabled(), true, `${name} is read-only for bob`)
      assert.deepEqual(pageErrors, [])
    })
  }

  for (const variant of VARIANTS) {
    test(`${variant.label}: the file editor previews Markdown, and only Markdown`, TIMEOUT, async (t) => {
      const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice, variant)
      await open(page, `/${s.alice.login}/notes/_edit/README.md`, variant.theme)
      const tabs = page.getByRole('tablist', { name: 'README.md' })
      await expectVisible(tabs)
      const content = page.getByLabel('Content', { exact: true })
      await content.fill('# Release notes\n\n- [ ] Ship it\n\nMade with **care**.\n')
      await tabs.getByRole('tab', { name: 'Preview' }).click()
      await expectHidden(content)
      const preview = page.locator('.preview')
      await expectVisible(preview.getByRole('heading', { name: 'Release notes', level: 1 }))
      await expectVisible(preview.getByRole('checkbox', { name: 'Ship it' }))
      assert.equal(await preview.getByRole('checkbox', { name: 'Ship it' }).isDisabled(), true, 'a preview is not a form')
      assert.equal(await preview.locator('strong').textContent(), 'care')
      await assertLegible(preview.getByRole('heading', { name: 'Release notes' }), `${variant.label}: the preview`)
      await assertNoSidewaysScroll(page, variant.label)
      // Back to writing: the text is kept.
      await tabs.getByRole('tab', { name: 'Write' }).click()
      assert.equal(await content.inputValue(), '# Release notes\n\n- [ ] Ship it\n\nMade with **care**.\n')

      // Go source has no preview.
      await open(page, `/${s.alice.login}/notes/_edit/main.go`, variant.theme)
      await expectVisible(page.getByLabel('Content', { exact: true }))
      await expectHidden(page.getByRole('tab', { name: 'Preview' }))
      assert.deepEqual(pageErrors, [])
    })
  }
})
