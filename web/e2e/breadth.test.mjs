// The Gitea-breadth features as a signed-in user walks them, against the
// real node: organizations, milestones, releases with assets, the web
// editor and webhooks with their delivery log.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { expectEventually, expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

// Webhooks here go to a loopback receiver, which a node refuses by default.
const env = useNodeAndBrowser({ serveArgs: ['--webhook-allow-private'] })
const defaultName = (address) => `user-${address.slice(2, 22).toLowerCase()}`

/** A browser context signed in with a fresh wallet; returns the page and login. */
async function signedIn(t, from = '/explore') {
  const { page } = await openPage(t, env.browser, env.node.url)
  const wallet = headlessWallet(generatePrivateKey())
  await wallet.install(page)
  await page.goto(from)
  await waitForShell(page)
  await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  const login = defaultName(wallet.address)
  await expectVisible(page.locator('header').getByRole('link', { name: login, exact: true }))
  return { page, login }
}

/** Calls the API from the page's session (cookie + CSRF); returns { status, body }. */
function api(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const csrf = JSON.parse(localStorage.getItem('auth-storage')).state.csrfToken
      const res = await fetch(`/api/v1${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      let json = null
      try {
        json = JSON.parse(text)
      } catch {}
      return { status: res.status, body: json ?? text }
    },
    { method, path, body },
  )
}

/** Creates a repository with a README through the API, as the signed-in user. */
async function newRepo(page, name, owner = '') {
  const res = await api(page, 'POST', owner ? `/orgs/${owner}/repos` : '/user/repos', { name, auto_init: true })
  assert.equal(res.status, 201, `create repository ${name}: ${JSON.stringify(res.body)}`)
  return res.body
}

describe('breadth', () => {
  test('create an organization on /groups, see it and its repository on its page', TIMEOUT, async (t) => {
    const { page, login } = await signedIn(t, '/groups')
    const org = `org-${login.slice(5, 13)}`
    await page.getByLabel('Name', { exact: true }).fill(org)
    await page.getByLabel('Full name').fill('The E2E Guild')
    await page.getByRole('button', { name: 'Create organization' }).click()
    await page.waitForURL((u) => u.pathname === `/org/${org}`)
    await waitForShell(page)
    await expectVisible(page.getByRole('heading', { name: 'The E2E Guild' }))
    await expectVisible(page.getByText('This organization has no repositories yet.'))

    const got = await api(page, 'GET', `/orgs/${org}`)
    assert.equal(got.status, 200)
    assert.equal(got.body.full_name, 'The E2E Guild')

    await newRepo(page, 'guild-tools', org)
    await page.reload()
    await waitForShell(page)
    await expectVisible(page.getByRole('link', { name: 'guild-tools' }))
    assert.equal(await page.getByRole('link', { name: 'guild-tools' }).first().getAttribute('href'), `/${org}/guild-tools`)

    // /groups lists it among the user's organizations.
    await page.goto('/groups')
    await waitForShell(page)
    await expectVisible(page.getByRole('link', { name: 'The E2E Guild' }))
  })

  test('create a milestone, see its progress bar, set it on an issue from the sidebar', TIMEOUT, async (t) => {
    const { page, login } = await signedIn(t)
    await newRepo(page, 'planning')
    const issue = await api(page, 'POST', `/repos/${login}/planning/issues`, { title: 'Ship the first cut' })
    assert.equal(issue.status, 201, JSON.stringify(issue.body))

    await page.goto(`/${login}/planning/milestones`)
    await waitForShell(page)
    await page.getByRole('button', { name: 'New milestone' }).click()
    await page.getByLabel('Title').fill('v1.0')
    await page.getByRole('button', { name: 'Create milestone' }).click()
    const bar = page.getByRole('progressbar', { name: 'Progress of v1.0' })
    await expectVisible(bar)
    assert.equal(await bar.getAttribute('aria-valuetext'), '0% complete · 0 open · 0 closed')

    await page.goto(`/${login}/planning/issues/${issue.body.number}`)
    await waitForShell(page)
    await expectVisible(page.getByText('No milestone', { exact: true }).first())
    await page.getByLabel('Choose a milestone').selectOption({ label: 'v1.0' })
    await expectVisible(page.getByRole('link', { name: 'v1.0', exact: true }))
    await expectEventually(async () => (await api(page, 'GET', `/repos/${login}/planning/issues/${issue.body.number}`)).body.milestone?.title, 'v1.0')

    // The milestone now counts the issue.
    await page.goto(`/${login}/planning/milestones`)
    await waitForShell(page)
    await expectEventually(() => bar.getAttribute('aria-valuetext'), '0% complete · 1 open · 0 closed')
  })

  test('publish a release, upload an asset, download its bytes', TIMEOUT, async (t) => {
    const { page, login } = await signedIn(t)
    await newRepo(page, 'shipping')
    await page.goto(`/${login}/shipping/releases`)
    await waitForShell(page)
    await expectVisible(page.getByText('No releases yet.'))
    await page.getByRole('button', { name: 'New release' }).click()
    await page.getByLabel('Tag name').fill('v0.1.0')
    await page.getByLabel('Title', { exact: true }).fill('First drop')
    await page.getByRole('button', { name: 'Publish release' }).click()
    await expectVisible(page.getByRole('heading', { name: 'First drop' }))

    const bytes = Buffer.from('dforge e2e asset\n\u0000\u0001binary tail')
    await page.getByLabel('Upload an asset').setInputFiles({ name: 'notes.bin', mimeType: 'application/octet-stream', buffer: bytes })
    const link = page.getByRole('link', { name: 'notes.bin' })
    await expectVisible(link)
    const href = await link.getAttribute('href')
    const res = await fetch(new URL(href, env.node.url))
    assert.equal(res.status, 200)
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes)

    const rel = await api(page, 'GET', `/repos/${login}/shipping/releases/tags/v0.1.0`)
    assert.equal(rel.status, 200)
    assert.deepEqual(rel.body.assets.map((a) => [a.name, a.size]), [['notes.bin', bytes.length]])
  })

  test('edit a file in the browser and commit it to the branch', TIMEOUT, async (t) => {
    const { page, login } = await signedIn(t)
    await newRepo(page, 'notes')
    await page.goto(`/${login}/notes/src/README.md`)
    await waitForShell(page)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.waitForURL((u) => u.pathname === `/${login}/notes/_edit/README.md`)
    const content = page.getByLabel('Content')
    await expectVisible(content)
    await content.fill('# Notes\n\nEdited in the browser.\n')
    await page.getByLabel('Commit message').fill('Say where it was edited')
    await page.getByRole('button', { name: 'Commit changes' }).click()
    await page.waitForURL((u) => u.pathname === `/${login}/notes/src/README.md`)
    await expectVisible(page.getByText('Edited in the browser.'))

    const file = await api(page, 'GET', `/repos/${login}/notes/contents/README.md`)
    assert.equal(file.status, 200)
    assert.equal(Buffer.from(file.body.content, 'base64').toString('utf8'), '# Notes\n\nEdited in the browser.\n')
    const commits = await api(page, 'GET', `/repos/${login}/notes/commits?limit=1`)
    assert.equal(commits.status, 200)
    assert.equal(commits.body[0].commit.message.trim(), 'Say where it was edited')
    // The commit is the signed-in user's, in git's own author and committer.
    // (The top-level author/committer, Gitea's matched accounts, are null
    // here: the API does not resolve commit emails to users.)
    assert.equal(commits.body[0].commit.author.name, login)
    assert.equal(commits.body[0].commit.committer.name, login)
  })

  test('add a webhook to a local receiver, test it, see the delivery and its status', TIMEOUT, async (t) => {
    const received = []
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push({ event: req.headers['x-gitea-event'], body })
        res.writeHead(202, { 'Content-Type': 'text/plain' })
        res.end('accepted')
      })
    })
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    t.after(() => new Promise((resolve) => {
      receiver.closeAllConnections()
      receiver.close(() => resolve())
    }))
    const target = `http://127.0.0.1:${receiver.address().port}/hook`

    const { page, login } = await signedIn(t)
    await newRepo(page, 'hooked')
    await page.goto(`/${login}/hooked/settings/hooks`)
    await waitForShell(page)
    await expectVisible(page.getByText('No webhooks yet.'))
    await page.getByRole('button', { name: 'Add webhook' }).first().click()
    const form = page.locator('form').filter({ has: page.getByLabel('Target URL') })
    await form.getByLabel('Target URL').fill(target)
    await form.getByRole('button', { name: 'Add webhook' }).click()
    await expectVisible(page.getByText('Active', { exact: true }))

    await page.getByRole('button', { name: 'Test delivery' }).click()
    await expectVisible(page.getByText('A test push was queued; its result appears in the deliveries.'))
    await expectEventually(() => received.length, 1, { message: 'the receiver got the test push' })
    assert.equal(received[0].event, 'push')

    await page.getByRole('button', { name: 'Deliveries' }).click()
    await expectVisible(page.getByRole('heading', { name: `Deliveries to ${target}` }))
    // The receiver answered before the log opened; a pending entry is refetched until it settles.
    await expectVisible(page.getByText('Delivered', { exact: true }), 20_000)
    await page.getByText('Delivered', { exact: true }).first().click()
    await expectVisible(page.getByText('Status 202'))

    const hooks = await api(page, 'GET', `/repos/${login}/hooked/hooks`)
    assert.equal(hooks.status, 200)
    assert.deepEqual(hooks.body.map((h) => h.config.url), [target])
  })
})
