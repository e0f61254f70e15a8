// The contact form: validation, the sending state, success and server errors.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectHidden, expectVisible, localeFile, openPage, useNodeAndBrowser, waitFor, waitForShell, TIMEOUT } from './harness.mjs'

const env = useNodeAndBrowser()
const help = localeFile('en', 'help')
const REQUIRED = 'This field is required.'
const SENDING = 'Sending...'
const THANKS = 'Thank you for contacting us! We will get back to you soon.'
const VALUES = {
  Name: 'Ada Lovelace',
  Email: 'ada@example.org',
  Subject: 'Node operators',
  Message: 'How do I run a second node next to the first one?',
}

/** The contact page with a record of every POST /api/v1/contact the page makes. */
async function contactPage(t) {
  const opened = await openPage(t, env.browser, env.node.url)
  const posts = []
  opened.page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/contact') posts.push(req)
  })
  await opened.page.goto('/help/contact')
  await waitForShell(opened.page)
  await expectVisible(opened.page.getByRole('button', { name: 'Send', exact: true }))
  return { ...opened, posts }
}

async function fill(page, values) {
  for (const [label, value] of Object.entries(values)) {
    await page.getByLabel(label, { exact: true }).fill(value)
  }
}

async function typedValues(page) {
  const out = {}
  for (const label of Object.keys(VALUES)) out[label] = await page.getByLabel(label, { exact: true }).inputValue()
  return out
}

/**
 * Resolves once every request the page has made so far has been reported:
 * the page fetches a marker now and the request events arrive in the order the
 * page made the requests, so a POST made by an earlier click is in posts by then.
 */
async function requestsSoFarSeen(page) {
  const marker = `/favicon.svg?seen=${Date.now()}`
  const seen = page.waitForRequest((req) => req.url().endsWith(marker))
  await page.evaluate((url) => fetch(url, { cache: 'no-store' }).then((res) => res.arrayBuffer()), marker)
  await seen
}

describe('contact form', () => {
  test('submitting an empty form shows "This field is required." on every field and sends nothing', TIMEOUT, async (t) => {
    const { page, posts } = await contactPage(t)
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expectVisible(page.getByText(REQUIRED, { exact: true }))
    assert.equal(await page.getByText(REQUIRED, { exact: true }).count(), 4)
    for (const label of Object.keys(VALUES)) {
      const field = page.getByLabel(label, { exact: true })
      assert.equal(await field.getAttribute('aria-invalid'), 'true', `${label} is marked invalid`)
    }
    // The first invalid field gets the focus.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'contact-name')
    await requestsSoFarSeen(page)
    assert.equal(posts.length, 0, 'nothing was sent')

    // Fixing one field clears only its message on the next submit.
    await fill(page, { Name: 'Ada' })
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await waitFor(async () => (await page.getByText(REQUIRED, { exact: true }).count()) === 3, { message: 'three messages left' })
    assert.equal(posts.length, 0)
  })

  test('a malformed e-mail address shows the e-mail error and sends nothing', TIMEOUT, async (t) => {
    const { page, posts } = await contactPage(t)
    await fill(page, { ...VALUES, Email: 'ada-at-example' })
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expectVisible(page.getByText(help.contact.errors.email, { exact: true }))
    assert.equal(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid'), 'true')
    assert.equal(await page.getByText(REQUIRED, { exact: true }).count(), 0)
    await requestsSoFarSeen(page)
    assert.equal(posts.length, 0, 'nothing was sent')
  })

  test('a valid message shows Sending... while pending, then the thank-you text', TIMEOUT, async (t) => {
    const { page, posts } = await contactPage(t)
    let release
    const gate = new Promise((r) => (release = r))
    await page.route('**/api/v1/contact', async (route) => {
      await gate
      await route.continue()
    })
    await fill(page, VALUES)
    const responded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/contact')
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    const sending = page.getByRole('button', { name: SENDING, exact: true })
    await expectVisible(sending)
    assert.equal(await sending.isDisabled(), true, 'the button is disabled while sending')
    assert.equal(await page.getByText(THANKS).count(), 0)
    assert.equal(posts.length, 1)
    assert.deepEqual(JSON.parse(posts[0].postData()), { name: VALUES.Name, email: VALUES.Email, subject: VALUES.Subject, message: VALUES.Message })

    release()
    const res = await responded
    assert.equal(res.status(), 201, 'the node stored the message')
    assert.ok(Number.isInteger((await res.json()).id))
    await expectVisible(page.getByText(THANKS, { exact: true }))
    await expectHidden(page.getByRole('button', { name: SENDING }))
    assert.equal(posts.length, 1, 'sent exactly once')
  })

  test('a server error shows an alert with the reason and keeps everything typed', TIMEOUT, async (t) => {
    const { page, posts } = await contactPage(t)
    await page.route('**/api/v1/contact', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'database is down', code: 'internal' }) }),
    )
    await fill(page, VALUES)
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'database is down' })
    await expectVisible(alert)
    assert.equal(posts.length, 1)
    assert.deepEqual(await typedValues(page), VALUES, 'every typed value is kept')
    assert.equal(await page.getByText(THANKS).count(), 0)
    const send = page.getByRole('button', { name: 'Send', exact: true })
    await expectVisible(send)
    assert.equal(await send.isEnabled(), true, 'the user can try again')

    // Trying again once the server is back works.
    await page.unroute('**/api/v1/contact')
    await send.click()
    await expectVisible(page.getByText(THANKS, { exact: true }))
  })

  test('a network failure also keeps what was typed and says the server could not be reached', TIMEOUT, async (t) => {
    const { page } = await contactPage(t)
    await page.route('**/api/v1/contact', (route) => route.abort('failed'))
    await fill(page, VALUES)
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expectVisible(page.getByRole('alert').filter({ hasText: help.contact.networkFailed }))
    assert.deepEqual(await typedValues(page), VALUES)
  })
})
