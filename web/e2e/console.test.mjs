// A tour of every route of the route table, signed in, against a node with
// a real repository, issue, pull request, milestone, organization, forum
// topic and conversation (issue 25, "a console test"): no page logs a
// console error or a JavaScript exception, and no request fails, except
// the 404s of a route whose item does not exist, which must then show the
// app's own 404 page. Every other route must not.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectHidden, routeTable, useNodeAndBrowser, waitForShell } from './harness.mjs'
import { api, DESKTOP, PHONE, session, signUp } from './people.mjs'

// alice is the node's admin and an event organizer, so the admin console
// and an event have real pages too.
const ALICE_KEY = generatePrivateKey()
const ALICE = privateKeyToAccount(ALICE_KEY).address
const env = useNodeAndBrowser({ serveArgs: ['--admin', ALICE], roles: { [ALICE]: 'event_organizer' } })
const TOUR = { timeout: 300_000 }

const b64 = (text) => Buffer.from(text).toString('base64')
const s = { alice: null, bob: null, ids: {} }

describe('console', () => {
  before(async () => {
    s.alice = await signUp(env.browser, env.node.url, { privateKey: ALICE_KEY })
    s.bob = await signUp(env.browser, env.node.url)
    const a = await session(env.browser, env.node.url, s.alice)
    try {
      const o = s.alice.login
      const repo = await api(a.page, 'POST', '/user/repos', { name: 'tour', auto_init: true }, 201)
      const main = [
        { operation: 'create', path: 'main.go', content: b64('package main\n\nfunc main() {\n\tprintln("tour")\n}\n') },
        { operation: 'create', path: 'docs/guide.md', content: b64('# Guide\n\n- [ ] Read it\n') },
      ]
      await api(a.page, 'POST', `/repos/${o}/tour/contents`, { branch: 'main', message: 'Add the program', files: main }, 201)
      const change = [{ operation: 'create', path: 'NOTES.md', content: b64('Notes\n') }]
      await api(a.page, 'POST', `/repos/${o}/tour/contents`, { branch: 'main', new_branch: 'feature', message: 'Add notes', files: change }, 201)
      const milestone = await api(a.page, 'POST', `/repos/${o}/tour/milestones`, { title: 'First release' }, 201)
      const issue = await api(a.page, 'POST', `/repos/${o}/tour/issues`, { title: 'A first issue', body: '- [ ] a task', milestone: milestone.id }, 201)
      await api(a.page, 'POST', `/repos/${o}/tour/issues/${issue.number}/comments`, { body: 'A comment.' }, 201)
      const pr = await api(a.page, 'POST', `/repos/${o}/tour/pulls`, { head: 'feature', base: 'main', title: 'Add notes' }, 201)
      const commit = await api(a.page, 'GET', `/repos/${o}/tour/branches/main`, undefined, 200)
      await api(a.page, 'POST', '/orgs', { username: `${o.slice(0, 12)}-org` }, 201)
      const topic = await api(a.page, 'POST', '/forum/topics', { category: 'general', title: 'Hello forum', body: 'A first topic.' }, 201)
      const message = await api(a.page, 'POST', '/messages', { to: s.bob.login, body: 'Hello Bob' }, 201)
      const day = 24 * 60 * 60 * 1000
      const at = (days) => new Date(Date.now() + days * day).toISOString().replace(/\.\d+Z$/, 'Z')
      const event = await api(a.page, 'POST', '/events', { title: 'Tour meetup', description: 'We meet.', starts_at: at(7), ends_at: at(7.1), timezone: 'UTC', place: 'Online' }, 201)
      const listing = await api(a.page, 'POST', '/marketplace/listings', { name: 'Tour CI', description: 'Builds.', events: ['push'], url_template: 'https://ci.example/{owner}/{repo}', homepage: '' }, 201)
      const ticket = await api(a.page, 'POST', '/contact', { name: 'Alice', email: 'alice@example.org', subject: 'A question', message: 'How do I fork?' }, 201)
      s.ids = {
        repo: repo.id,
        issue: issue.number,
        issueId: issue.id,
        pr: pr.number,
        prId: pr.id,
        milestone: milestone.id,
        sha: commit.commit.id,
        org: `${o.slice(0, 12)}-org`,
        topic: topic.id,
        conversation: message.conversation_id ?? message.conversation?.id,
        ticket: ticket.id,
        event: event.id,
        listing: listing.id,
      }
    } finally {
      await a.close()
    }
  })

  /**
   * Every route as a concrete path, with the item it names when this node
   * has one; `missing` marks the routes left with an item that does not
   * exist, which must show the app's 404 page.
   */
  function tourPaths() {
    const o = s.alice.login
    const repo = `/${o}/tour`
    const known = {
      '/:owner/:repo': repo,
      '/:owner/:repo/src/*': `${repo}/src/main.go`,
      '/:owner/:repo/blame/*': `${repo}/blame/main.go`,
      '/:owner/:repo/_edit/*': `${repo}/_edit/docs/guide.md`,
      '/:owner/:repo/_new/*': `${repo}/_new/docs`,
      '/:owner/:repo/_delete/*': `${repo}/_delete/main.go`,
      '/:owner/:repo/commit/:sha': `${repo}/commit/${s.ids.sha}`,
      '/:owner/:repo/issues/:number': `${repo}/issues/${s.ids.issue}`,
      '/:owner/:repo/pulls/:number': `${repo}/pulls/${s.ids.pr}`,
      '/:owner/:repo/milestones/:id': `${repo}/milestones/${s.ids.milestone}`,
      '/repository/:id': `/repository/${s.ids.repo}`,
      '/issue/:id': `/issue/${s.ids.issueId}`,
      '/pr/:id': `/pr/${s.ids.prId}`,
      '/user/:id': `/user/${s.bob.login}`,
      '/org/:name': `/org/${s.ids.org}`,
      '/forum/topic/:id': `/forum/topic/${s.ids.topic}`,
      '/messages/:id': `/messages/${s.ids.conversation}`,
      '/help/tickets/:id': `/help/tickets/${s.ids.ticket}`,
      '/events/:id': `/events/${s.ids.event}`,
      '/marketplace/:id': `/marketplace/${s.ids.listing}`,
      '/blog/:id': '/blog/introducing-dforge',
      '/docs/*': '/docs/getting-started',
      '/help/*': '/help/faq',
    }
    return routeTable().map((r) => {
      if (known[r.path]) return { route: r.path, path: known[r.path], missing: false }
      if (r.path.startsWith('/:owner/:repo')) return { route: r.path, path: r.path.replace('/:owner/:repo', repo), missing: false }
      // A proposal needs a deposit and a vote, a grant a passed proposal: their routes show 404 pages.
      if (/:[a-z]+|\*/.test(r.path)) return { route: r.path, path: r.path.replace(/:[a-z]+|\*/g, '1'), missing: true }
      return { route: r.path, path: r.path, missing: false }
    })
  }

  /**
   * Loads each stop in one of three tabs of a signed-in context and returns
   * what went wrong on it: console errors, exceptions, failed requests, and
   * a 404 page where there should be none (or none where there should be).
   */
  async function tour(viewport, theme) {
    // Service workers as a visitor has them: Playwright's blocking makes the app's registration fail with a console error.
    const context = await env.browser.newContext({ baseURL: env.node.url, serviceWorkers: 'allow', viewport, storageState: s.alice.state })
    await context.addInitScript((t) => localStorage.setItem('theme-storage', JSON.stringify({ state: { theme: t }, version: 0 })), theme)
    const stops = tourPaths()
    const queue = [...stops]
    const problems = []
    try {
      const tabs = await Promise.all([context.newPage(), context.newPage(), context.newPage()])
      await Promise.all(
        tabs.map(async (tab) => {
          // What the tab reports goes to the stop it was at when the request started.
          let at = null
          const startedAt = new Map()
          const report = (stop, what) => stop && problems.push({ stop, what })
          tab.on('request', (req) => startedAt.set(req, at))
          tab.on('console', (m) => m.type() === 'error' && report(at, { console: m.text(), url: m.location().url }))
          tab.on('pageerror', (e) => report(at, { exception: e.message }))
          tab.on('response', (res) => res.status() >= 400 && report(startedAt.get(res.request()) ?? at, { status: res.status(), url: res.url() }))
          // A request the browser drops as the tab moves on is not a failure.
          tab.on('requestfailed', (req) => req.failure()?.errorText !== 'net::ERR_ABORTED' && report(startedAt.get(req) ?? at, { failed: req.failure()?.errorText, url: req.url() }))
          for (let stop = queue.shift(); stop; stop = queue.shift()) {
            at = stop
            await tab.goto(stop.path)
            await waitForShell(tab)
            await expectHidden(tab.getByText('Loading...', { exact: true }), 20_000)
            await tab.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {})
            const fallback = tab.locator('main .error-fallback').filter({ hasText: '404' })
            // A missing item's 404 comes once its query settles, which the
            // shell's "Loading..." and the network (the live chain's stream
            // never idles) do not wait for: give it time before judging.
            if (stop.missing) await fallback.first().waitFor({ timeout: 15_000 }).catch(() => {})
            const notFound = await fallback.count()
            if (stop.missing && notFound === 0) report(stop, { page: 'no 404 page for an item that does not exist' })
            if (!stop.missing && notFound > 0) report(stop, { page: 'a 404 page' })
            at = null
          }
          await tab.close()
        }),
      )
    } finally {
      await context.close()
    }
    // A 404 page's own item is allowed its 404 (and the console line Chromium logs for it).
    const deliberate = (p) => p.stop.missing && (p.what.status === 404 || /status of 404/.test(p.what.console ?? ''))
    return problems.filter((p) => !deliberate(p)).map((p) => `${p.stop.path}: ${JSON.stringify(p.what)}`)
  }

  test('signed in at 1280 px (light): no console error, exception or failed request on any route', TOUR, async () => {
    assert.deepEqual(await tour(DESKTOP, 'light'), [])
  })

  test('signed in at 390 px (dark): no console error, exception or failed request on any route', TOUR, async () => {
    assert.deepEqual(await tour(PHONE, 'dark-warm'), [])
  })

  test('the tour reaches every route of the table, with real items where a new account can make them', () => {
    const stops = tourPaths()
    assert.equal(stops.length, routeTable().length)
    const missing = stops.filter((x) => x.missing).map((x) => x.route)
    assert.deepEqual(missing, ['/governance/:id', '/grants/:id'])
    for (const [item, id] of Object.entries(s.ids)) assert.ok(id !== undefined && id !== null && id !== '', `the ${item} was created`)
  })
})
