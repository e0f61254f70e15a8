// The community features in the browser, as a user drives them against the
// real node: a wallet holding the forum_moderator and event_organizer roles
// from genesis opens a forum topic, replies, quotes, accepts an answer and
// locks the topic; creates an event and answers it; publishes a marketplace
// listing; /community then shows the topic and the event. Every page, with
// its data, passes axe (no serious or critical violation).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectHidden, expectVisible, openPage, useNodeAndBrowser, waitFor, waitForShell, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const KEY = generatePrivateKey()
const ADDRESS = privateKeyToAccount(KEY).address
const env = useNodeAndBrowser({
  alloc: { [ADDRESS]: 1_000_000_000n },
  roles: { [ADDRESS]: ['forum_moderator', 'event_organizer'] },
  emptyBlocks: '300ms',
})

const TOPIC = 'How do I run a node behind a proxy?'
const EVENT = 'dForge meetup in Berlin'
const LISTING = 'Walkthrough CI'
// What the steps made, for the later ones.
const made = { topic: '', event: '' }

/** A fresh page signed in with the test wallet; returns it and the account's login. */
async function signedIn(t) {
  const { page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1280, height: 900 } })
  const wallet = headlessWallet(KEY)
  await wallet.install(page)
  await page.goto('/wallet')
  await waitForShell(page)
  await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectVisible(page.getByTestId('account-balance'))
  const login = await page.evaluate(async () => (await (await fetch('/api/v1/user')).json()).login)
  assert.ok(login, 'the signed-in user has a login')
  return { page, login }
}

async function violations(page) {
  await waitFor(async () => (await page.locator('.inline-loading, .fullscreen-loading').count()) === 0, { timeout: 5_000 }).catch(() => {})
  return page.evaluate(async (source) => {
    if (!window.axe) (0, eval)(source)
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] })
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`).join(' | ')}`)
  }, AXE)
}

/** A datetime-local value ("2030-05-01T18:00") days from now, read as a wall time. */
function wallTime(days, hour) {
  const d = new Date(Date.now() + days * 86_400_000)
  const pad = (n) => String(n).padStart(2, '0')
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(hour)}:00`
}

describe('community', () => {
  test('forum: a topic is opened, answered, quoted, accepted and locked by a moderator', { timeout: 60_000 }, async (t) => {
    const { page, login } = await signedIn(t)
    await page.goto('/forum')
    await waitForShell(page)
    await expectVisible(page.getByRole('heading', { name: 'Forum', level: 1 }))
    await page.getByRole('button', { name: 'New topic' }).click()
    const form = page.getByRole('dialog', { name: 'New topic' }).getByRole('form', { name: 'New topic' })
    await form.getByLabel('Category').selectOption({ label: 'Help' })
    await form.getByLabel('Title').fill(TOPIC)
    await form.getByRole('textbox', { name: 'Message' }).fill('My node sits behind **nginx**.\n\n- port 3000\n- TLS at the proxy')
    await form.getByRole('button', { name: 'Create topic' }).click()
    await page.waitForURL(/\/forum\/topic\/\d+$/)
    made.topic = new URL(page.url()).pathname
    const opening = page.getByRole('article').filter({ has: page.getByRole('heading', { name: TOPIC, level: 1 }) })
    await expectVisible(opening)
    // The Markdown body is rendered: bold text and a list.
    assert.equal(await opening.locator('strong').first().textContent(), 'nginx')
    await expectVisible(opening.getByRole('listitem').filter({ hasText: 'TLS at the proxy' }))
    await expectVisible(page.getByText('No replies yet. Be the first to answer.'))

    // A reply through the reply box.
    const replyForm = page.getByRole('form', { name: 'Reply' })
    await replyForm.getByRole('textbox', { name: 'Your reply' }).fill('Set `--addr` and proxy to it.')
    await replyForm.getByRole('button', { name: 'Post reply' }).click()
    await expectVisible(page.getByRole('heading', { name: 'Replies (1)' }))
    const replies = page.getByRole('article', { name: `Reply by ${login}` })
    await expectVisible(replies)
    assert.equal(await replies.count(), 1)
    assert.equal(await replyForm.getByRole('textbox', { name: 'Your reply' }).inputValue(), '')

    // Quote it: the reply box takes the quoted text; the new reply points back.
    await replies.first().getByRole('button', { name: 'Quote' }).click()
    const box = replyForm.getByRole('textbox', { name: 'Your reply' })
    await waitFor(async () => (await box.inputValue()).includes('> '), { message: 'the quoted text in the reply box' })
    assert.match(await box.inputValue(), /^> .*--addr/m)
    await box.press('End')
    await box.pressSequentially('Thanks, that works.')
    await replyForm.getByRole('button', { name: 'Post reply' }).click()
    await expectVisible(page.getByRole('heading', { name: 'Replies (2)' }))
    await waitFor(async () => (await replies.count()) === 2, { message: 'two replies' })
    const second = replies.nth(1)
    await expectVisible(second.getByRole('link', { name: 'quoting an earlier reply' }))
    await expectVisible(second.locator('blockquote'))
    await expectVisible(second.getByText('Thanks, that works.'))

    // Accept the first reply as the answer.
    await replies.first().getByRole('button', { name: 'Mark as answer' }).click()
    await expectVisible(replies.first().getByText('Accepted answer', { exact: true }))
    await expectVisible(replies.first().getByRole('button', { name: 'Unmark answer' }))
    await expectVisible(opening.getByText('Answered', { exact: true }))

    // As moderator, lock it: the reply box gives way to the locked message.
    const moderation = page.getByRole('region', { name: 'Moderation' })
    await moderation.getByRole('button', { name: 'Lock', exact: true }).click()
    await expectVisible(moderation.getByRole('button', { name: 'Unlock', exact: true }))
    await expectVisible(page.getByRole('status').filter({ hasText: 'This topic is locked: it takes no new replies.' }))
    await expectHidden(page.getByRole('textbox', { name: 'Your reply' }))
    await expectHidden(page.getByRole('button', { name: 'Post reply' }))
    await expectVisible(opening.getByText('Locked', { exact: true }))

    // The list shows the topic with its markers and reply count.
    await page.getByRole('link', { name: '← Back to the forum' }).click()
    await page.waitForURL(/\/forum$/)
    const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: TOPIC }) })
    await expectVisible(row)
    await expectVisible(row.getByText('Locked', { exact: true }))
    await expectVisible(row.getByText('Answered', { exact: true }))
    await expectVisible(row.getByText('Replies: 2'))
    await expectVisible(page.getByRole('tab', { name: 'Help (1)' }))
  })

  test('events: an organizer creates an event, answers Going and gets its calendar file', { timeout: 60_000 }, async (t) => {
    const { page, login } = await signedIn(t)
    await page.goto('/events')
    await waitForShell(page)
    await expectVisible(page.getByText('No upcoming events. Event organizers add them here.'))
    await page.getByRole('button', { name: 'New event' }).click()
    const form = page.getByRole('form', { name: 'New event' })
    await form.getByLabel('Title').fill(EVENT)
    await form.getByLabel('Description').fill('Talks and **pretzels**.')
    await form.getByLabel('Starts').fill(wallTime(7, 18))
    await form.getByLabel('Ends').fill(wallTime(7, 21))
    await form.getByLabel('Time zone').selectOption('Europe/Berlin')
    await form.getByLabel('Place').fill('c-base, Berlin')
    await form.getByRole('button', { name: 'Create event' }).click()
    await page.waitForURL(/\/events\/\d+$/, { timeout: 15_000 })
    made.event = new URL(page.url()).pathname
    await waitForShell(page)
    await expectVisible(page.getByRole('heading', { name: EVENT, level: 1 }))
    await expectVisible(page.getByText('(Europe/Berlin)'))
    await expectVisible(page.getByText('c-base, Berlin'))
    await expectVisible(page.getByText(`Organized by ${login}`))
    await expectVisible(page.getByText('Nobody has answered yet.'))

    // The list has it too.
    await page.getByRole('link', { name: '← All events' }).click()
    await page.waitForURL(/\/events$/)
    await expectVisible(page.getByRole('link', { name: EVENT }))
    await page.getByRole('link', { name: EVENT }).click()
    await page.waitForURL(/\/events\/\d+$/)

    // Answer Going: the count and the answer list follow.
    const rsvp = page.getByRole('group', { name: 'Will you come?' })
    await expectVisible(page.getByText('0 going, 0 maybe'))
    await rsvp.getByRole('button', { name: 'Going', exact: true }).click()
    await expectVisible(page.getByText('1 going, 0 maybe'))
    await expectVisible(rsvp.getByRole('button', { name: 'Going', exact: true, pressed: true }))
    await expectVisible(page.getByText('Your answer: Going. You can change it at any time.'))
    await expectVisible(page.getByRole('region', { name: 'Answers' }).getByRole('link', { name: login }))

    // "Add to calendar" serves an iCalendar file with the event.
    const link = page.getByRole('link', { name: 'Add to calendar (.ics)' })
    const href = await link.getAttribute('href')
    assert.ok(href, 'the calendar link has an address')
    const ics = await page.evaluate(async (href) => {
      const r = await fetch(href)
      return { status: r.status, type: r.headers.get('content-type'), text: await r.text() }
    }, href)
    assert.equal(ics.status, 200)
    assert.match(ics.type ?? '', /^text\/calendar/)
    assert.match(ics.text, /^BEGIN:VCALENDAR/)
    assert.match(ics.text, /BEGIN:VEVENT/)
    assert.ok(ics.text.replace(/\r\n[ \t]/g, '').includes(`SUMMARY:${EVENT}`), ics.text)
  })

  test('marketplace: a listing is published through the form and listed', { timeout: 60_000 }, async (t) => {
    const { page, login } = await signedIn(t)
    await page.goto('/marketplace')
    await waitForShell(page)
    await expectVisible(page.getByText('No listings yet. Publish the first one.'))
    await page.getByRole('button', { name: 'Publish a listing' }).click()
    const dialog = page.getByRole('dialog', { name: 'Publish a listing' })
    await dialog.getByLabel('Name').fill(LISTING)
    await dialog.getByLabel('Description').fill('Runs the tests on every push.')
    await dialog.getByLabel('Webhook URL template').fill('https://ci.example/hooks/{owner}/{repo}')
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click()
    await expectVisible(dialog.getByRole('status').getByText(`${LISTING} is published.`), 15_000)
    await dialog.getByRole('button', { name: 'Close' }).first().click()
    await expectHidden(page.getByRole('dialog'))
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: LISTING }) })
    await expectVisible(card)
    await expectVisible(card.getByText('Runs the tests on every push.'))
    await expectVisible(card.getByText('0 installs'))
    await expectVisible(card.getByRole('link', { name: login }))
  })

  test('/community shows the topic and the event; every page passes axe with its data', { timeout: 60_000 }, async (t) => {
    assert.ok(made.topic && made.event, 'the forum and events steps ran')
    const { page } = await signedIn(t)
    const overview = await page.evaluate(async () => (await fetch('/api/v1/community/overview')).json())
    assert.equal(overview.topics, 1)
    assert.deepEqual(overview.latest_topics.map((x) => x.title), [TOPIC])
    assert.deepEqual(overview.upcoming_events.map((x) => x.title), [EVENT])

    await page.goto('/community')
    await waitForShell(page)
    const topics = page.getByRole('region', { name: 'Latest forum topics' })
    await expectVisible(topics.getByRole('link', { name: TOPIC }))
    assert.equal(await topics.getByRole('link', { name: TOPIC }).getAttribute('href'), made.topic)
    await expectVisible(topics.getByText(/replies: 2$/))
    const events = page.getByRole('region', { name: 'Upcoming events' })
    await expectVisible(events.getByRole('link', { name: EVENT }))
    assert.equal(await events.getByRole('link', { name: EVENT }).getAttribute('href'), made.event)
    await expectVisible(events.getByText(/c-base, Berlin/))
    assert.equal(await page.getByTestId('figure-topics').textContent(), '1')

    const problems = []
    const pages = [
      ['/forum', page.getByRole('link', { name: TOPIC })],
      [made.topic, page.getByText('This topic is locked: it takes no new replies.')],
      ['/events', page.getByRole('link', { name: EVENT })],
      [made.event, page.getByText('1 going, 0 maybe')],
      ['/community', page.getByRole('region', { name: 'Upcoming events' }).getByRole('link', { name: EVENT })],
      ['/marketplace', page.getByRole('link', { name: LISTING })],
    ]
    for (const [path, ready] of pages) {
      await page.goto(path)
      await waitForShell(page)
      await expectVisible(ready)
      for (const v of await violations(page)) problems.push(`${path}: ${v}`)
    }
    assert.deepEqual(problems, [])
  })
})
