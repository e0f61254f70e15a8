// The service worker: registration at /sw.js with scope /, no-cache headers,
// and the precached shell that opens offline.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  activeServiceWorker,
  expectVisible,
  openPage,
  startProxy,
  useNodeAndBrowser,
  waitFor,
  waitForServiceWorker,
  waitForShell,
  SW_TIMEOUT,
  TIMEOUT,
} from './harness.mjs'

const env = useNodeAndBrowser()
const SW = { serviceWorkers: 'allow' }

/** A page behind a proxy whose /sw.js can be changed, as a deploy would. */
async function deployablePage(t) {
  const deploy = { suffix: '' }
  const proxy = await startProxy(env.node.url, { '/sw.js': (body) => body + deploy.suffix })
  t.after(() => proxy.close())
  const opened = await openPage(t, env.browser, proxy.url, SW)
  const dialogs = []
  opened.page.on('dialog', (d) => {
    dialogs.push({ type: d.type(), message: d.message() })
    return deploy.accept ? d.accept() : d.dismiss()
  })
  await opened.page.goto('/')
  await waitForShell(opened.page)
  await waitForServiceWorker(opened.page)
  const release = async (accept) => {
    deploy.accept = accept
    deploy.suffix = `\n// release ${Date.now()}\n`
    await opened.page.evaluate(() => {
      window.__marker = 1
    })
    await opened.page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()))
    await waitFor(() => dialogs.length > 0, { message: 'the update confirm dialog' })
  }
  return { ...opened, dialogs, release }
}

const UPDATE_TEXT = 'A new version is available! Click OK to update.'

describe('service worker', () => {
  test('/sw.js and index.html are served with Cache-Control no-cache; hashed assets are immutable', TIMEOUT, async () => {
    const sw = await fetch(`${env.node.url}/sw.js`)
    assert.equal(sw.status, 200)
    assert.match(sw.headers.get('cache-control') ?? '', /no-cache/)
    assert.match(sw.headers.get('content-type') ?? '', /javascript/)
    assert.match(await sw.text(), /precache/i, '/sw.js is the precaching worker')

    const index = await fetch(`${env.node.url}/`)
    assert.match(index.headers.get('cache-control') ?? '', /no-cache/)
    const html = await index.text()
    const asset = /\/assets\/index-[^"]+\.js/.exec(html)?.[0]
    assert.ok(asset, 'index.html loads a hashed entry script')
    const res = await fetch(env.node.url + asset)
    assert.equal(res.status, 200)
    assert.match(res.headers.get('cache-control') ?? '', /immutable/)
  })

  test('after load the worker at /sw.js is registered with scope /', SW_TIMEOUT, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, SW)
    await page.goto('/')
    await waitForShell(page)
    const reg = await activeServiceWorker(page)
    assert.equal(reg.error, undefined, reg.error)
    assert.equal(reg.scope, `${env.node.url}/`)
    assert.ok(reg.active?.endsWith('/sw.js'), `active worker script is ${reg.active}`)
    assert.ok(reg.active.startsWith(env.node.url), 'the worker is served from the site itself')
  })

  test('once the worker controls the page, the app shell opens offline from the precache', SW_TIMEOUT, async (t) => {
    const { context, page } = await openPage(t, env.browser, env.node.url, SW)
    await page.goto('/')
    await waitForShell(page)
    await waitForServiceWorker(page)

    await context.setOffline(true)
    assert.equal(await page.evaluate(() => navigator.onLine), false)
    await page.reload()
    await waitForShell(page)
    await expectVisible(page.locator('header').getByRole('link', { name: 'Home', exact: true }))
    await expectVisible(page.getByText('You are offline', { exact: true }))
    await expectVisible(page.locator('footer'))

    // Another screen, never visited, also opens: its chunk is precached too.
    await page.goto('/governance')
    await waitForShell(page)
    await expectVisible(page.locator('main h1'))
    assert.equal(await page.getByText('Oops! Something went wrong').count(), 0)
  })

  test('a new version asks to update, and OK reloads the page into it', SW_TIMEOUT, async (t) => {
    const { page, dialogs, release } = await deployablePage(t)
    await release(true)
    assert.deepEqual(dialogs, [{ type: 'confirm', message: UPDATE_TEXT }])
    // The waiting worker takes over and the page reloads once. Activation
    // waits for the old worker's pending fetches (a busy CI machine took more
    // than 10 s once), so the wait is longer and a timeout says where it stuck.
    await waitFor(() => page.evaluate(() => window.__marker === undefined).catch(() => false), {
      timeout: 30_000,
      message: 'the page to reload',
    }).catch(async (err) => {
      const where = await page
        .evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration()
          return { waiting: r?.waiting?.state, active: r?.active?.state, controlled: Boolean(navigator.serviceWorker.controller) }
        })
        .catch((e) => e.message)
      throw new Error(`${err.message}; registration: ${JSON.stringify(where)}`)
    })
    await waitForShell(page)
    const state = await page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration()
      return { waiting: Boolean(r?.waiting), controlled: Boolean(navigator.serviceWorker.controller) }
    })
    assert.deepEqual(state, { waiting: false, controlled: true })
    assert.equal(dialogs.length, 1, 'asked once')
  })

  test('declining the update keeps the page and the new version waiting', SW_TIMEOUT, async (t) => {
    const { page, dialogs, release } = await deployablePage(t)
    // Accepting would post SKIP_WAITING to the waiting worker (and the page reloads once it takes over): record those posts.
    await page.evaluate(() => {
      window.__posted = []
      const post = ServiceWorker.prototype.postMessage
      ServiceWorker.prototype.postMessage = function (...args) {
        window.__posted.push(args[0])
        return post.apply(this, args)
      }
    })
    await release(false)
    assert.equal(dialogs[0].message, UPDATE_TEXT)
    // The app handles the answer when confirm() returns, in that task and its microtasks: a task queued after them sees any post.
    const posted = await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve(window.__posted), 0)))
    assert.deepEqual(posted, [], 'nothing posted to the waiting worker')
    assert.equal(await page.evaluate(() => window.__marker), 1, 'no reload')
    assert.equal(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => Boolean(r?.waiting))), true)
  })
})
