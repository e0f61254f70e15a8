// Browser end-to-end test harness: the real dforge binary plus Debian's Chromium.
//
// Each test file starts one node (startNode) and one browser (launchBrowser)
// in `before` and stops them in `after`; every test gets a fresh browser
// context, so storage starts empty. Run with:
//   cd web && DFORGE_BIN=../bin/dforge node --test --test-concurrency=2 e2e/

import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before } from 'node:test'
import { chromium } from 'playwright-core'

export const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')
export const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium'
export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** How long a single expectation may poll before it fails. */
export const EXPECT_TIMEOUT = 10_000

const live = new Set()

// Servers must stop even when the runner dies on an uncaught error. (The
// watchdog shell below also stops the node if this process is SIGKILLed.)
process.on('exit', () => {
  for (const n of live) n.killNow()
})

function requireBinary() {
  const bin = process.env.DFORGE_BIN
  if (!bin) {
    throw new Error('DFORGE_BIN is not set: build with `make build` and run with DFORGE_BIN=/path/to/bin/dforge')
  }
  if (!existsSync(bin) || !statSync(bin).isFile()) {
    throw new Error(`DFORGE_BIN=${bin} does not exist: run \`make build\` first`)
  }
  return bin
}

// The node runs under a tiny shell that waits on its stdin: when this test
// process exits for any reason the pipe closes and the shell stops the node.
const WATCHDOG = `
if [ -n "$2" ]; then
  "$0" serve --home "$2" &
else
  # $3: extra serve flags (words split on spaces on purpose).
  "$0" serve --addr 127.0.0.1:0 --rpc-addr tcp://127.0.0.1:0 --p2p-addr tcp://127.0.0.1:0 --data "$1" $3 &
fi
pid=$!
echo "dforge-pid $pid"
read -r _ || true
kill -TERM "$pid" 2>/dev/null
wait "$pid"
`

/**
 * Starts the real binary on a free loopback port with a fresh data directory
 * and waits until /healthz answers; serveArgs are extra `serve` flags
 * (e.g. --webhook-allow-private). Returns { url, stop(), logs() }.
 */
export async function startNode({ timeout = 20_000, alloc = {}, params = {}, roles = {}, emptyBlocks = '', home = '', serveArgs = [] } = {}) {
  const bin = requireBinary()
  // A node of a network written by `dforge testnet` runs from its own dir.
  const dataDir = home || mkdtempSync(join(tmpdir(), 'dforge-e2e-'))
  // Funded accounts and chain parameters need a genesis of their own,
  // written before the first start.
  const genesis = [
    ...Object.entries(alloc).flatMap(([address, amount]) => ['--alloc', `${address}=${amount}`]),
    ...Object.entries(params).flatMap(([name, value]) => ['--param', `${name}=${value}`]),
    // roles: { address: 'forum_moderator' | ['forum_moderator', 'event_organizer'] }
    ...Object.entries(roles).flatMap(([address, held]) => [held].flat().flatMap((role) => ['--role', `${address}=${role}`])),
  ]
  if (genesis.length) execFileSync(bin, ['init', '--data', dataDir, ...genesis], { stdio: 'pipe' })
  // A short interval between an idle chain's blocks lets block-counted
  // periods (voting, timelocks) pass within a test.
  const env = emptyBlocks ? { ...process.env, DFORGE_EMPTY_BLOCKS: emptyBlocks } : process.env
  const child = spawn('/bin/sh', ['-c', WATCHDOG, bin, dataDir, home, serveArgs.join(' ')], { stdio: ['pipe', 'pipe', 'pipe'], env })
  let stdout = ''
  let stderr = ''
  let serverPid = 0
  let exited = false
  const exitedP = new Promise((resolve) => child.on('exit', (code, signal) => {
    exited = true
    resolve({ code, signal })
  }))
  child.stderr.on('data', (d) => {
    stderr += d
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000)
  })

  const node = {
    url: '',
    dataDir,
    logs: () => stderr,
    killNow() {
      if (serverPid) try { process.kill(serverPid, 'SIGKILL') } catch {}
      try { child.kill('SIGKILL') } catch {}
      try { rmSync(dataDir, { recursive: true, force: true }) } catch {}
    },
    async stop() {
      live.delete(node)
      if (!exited) {
        if (serverPid) try { process.kill(serverPid, 'SIGTERM') } catch {}
        child.stdin.end()
        const timer = setTimeout(() => node.killNow(), 10_000)
        await exitedP
        clearTimeout(timer)
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  live.add(node)

  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dforge did not print its URL within ${timeout} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`)), timeout)
    child.stdout.on('data', (d) => {
      stdout += d
      const pid = /^dforge-pid (\d+)$/m.exec(stdout)
      if (pid) serverPid = Number(pid[1])
      const m = /dForge is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    exitedP.then(({ code, signal }) => {
      clearTimeout(timer)
      reject(new Error(`dforge exited early (code ${code}, signal ${signal})\nstdout:\n${stdout}\nstderr:\n${stderr}`))
    })
  }).catch(async (err) => {
    await node.stop()
    throw err
  })
  node.url = url

  try {
    await waitFor(async () => {
      const res = await fetch(`${url}/healthz`)
      return res.ok
    }, { timeout, message: 'dforge /healthz did not answer 200' })
  } catch (err) {
    await node.stop()
    throw err
  }
  return node
}

/** Launches Debian's Chromium headless; never downloads a browser. */
export async function launchBrowser(extraArgs = []) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`)
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...BROWSER_ARGS, ...extraArgs],
  })
}

/**
 * Writes a network of `validators` nodes with `dforge testnet` and starts
 * them all; returns the nodes (stop them, then remove `dir`).
 */
export async function startNetwork(validators) {
  const dir = mkdtempSync(join(tmpdir(), 'dforge-e2e-net-'))
  execFileSync(requireBinary(), ['testnet', '--validators', String(validators), '--out', join(dir, 'net')], { stdio: 'pipe' })
  const nodes = await Promise.all(Array.from({ length: validators }, (_, k) => startNode({ home: join(dir, 'net', `node${k}`) })))
  return { nodes, dir }
}

/**
 * Registers `before`/`after` hooks that start one node and one browser for
 * the file. Returns an object whose `node` and `browser` are set in `before`.
 */
export function useNodeAndBrowser({ browserArgs = [], alloc = {}, params = {}, roles = {}, emptyBlocks = '', serveArgs = [] } = {}) {
  const env = { node: null, browser: null }
  before(async () => {
    env.node = await startNode({ alloc, params, roles, emptyBlocks, serveArgs })
    env.browser = await launchBrowser(browserArgs)
  })
  after(async () => {
    await env.browser?.close().catch(() => {})
    await env.node?.stop()
  })
  return env
}

/**
 * A fresh browser context (empty storage) and page for one test; closed when
 * the test ends. Console messages and page errors are collected.
 *
 * Service workers are blocked unless options say serviceWorkers: 'allow'
 * (service-worker.test.mjs does): every document and chunk then comes from
 * the node and reaches page.route, and no context spends the test
 * precaching the whole app in the background.
 */
export async function openPage(t, browser, baseURL, options = {}) {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', ...options })
  context.setDefaultTimeout(EXPECT_TIMEOUT)
  t.after(() => context.close().catch(() => {}))
  const page = await context.newPage()
  const consoleMessages = []
  const pageErrors = []
  page.on('console', (m) => consoleMessages.push({ type: m.type(), text: m.text() }))
  page.on('pageerror', (e) => pageErrors.push(e))
  return { context, page, consoleMessages, pageErrors }
}

/**
 * Polls fn until it returns a truthy value (which is returned) or the timeout
 * passes; an exception from fn counts as "not yet" and is shown on timeout,
 * except one made by fatal(), which ends the wait at once.
 */
export async function waitFor(fn, { timeout = EXPECT_TIMEOUT, interval = 50, message = 'condition' } = {}) {
  const deadline = Date.now() + timeout
  let last
  let lastErr
  for (;;) {
    try {
      last = await fn()
      if (last) return last
      lastErr = undefined
    } catch (err) {
      if (err?.fatal) throw err
      lastErr = err
    }
    if (Date.now() >= deadline) {
      const detail = lastErr ? `: ${lastErr.message}` : last !== undefined ? ` (last value: ${JSON.stringify(last)})` : ''
      throw new Error(`timed out after ${timeout} ms waiting for ${message}${detail}`)
    }
    await new Promise((r) => setTimeout(r, interval))
  }
}

/** An error that stops waitFor immediately. */
export function fatal(message) {
  return Object.assign(new Error(message), { fatal: true })
}

/** Waits until the locator is visible (user can see it). */
export async function expectVisible(locator, timeout = EXPECT_TIMEOUT) {
  await locator.first().waitFor({ state: 'visible', timeout })
}

/** Waits until nothing matching the locator is visible. */
export async function expectHidden(locator, timeout = EXPECT_TIMEOUT) {
  await waitFor(async () => {
    const n = await locator.count()
    for (let i = 0; i < n; i++) if (await locator.nth(i).isVisible()) return false
    return true
  }, { timeout, message: `${locator} to be hidden` })
}

/** Polls until fn() deep-equals expected (or matches a RegExp). */
export async function expectEventually(fn, expected, { timeout = EXPECT_TIMEOUT, message } = {}) {
  let last
  try {
    await waitFor(async () => {
      last = await fn()
      return expected instanceof RegExp ? expected.test(String(last)) : JSON.stringify(last) === JSON.stringify(expected)
    }, { timeout, message: message ?? `value ${expected instanceof RegExp ? expected : JSON.stringify(expected)}` })
  } catch (err) {
    throw new Error(`${err.message}; last value was ${JSON.stringify(last)}`)
  }
}

/** Waits until the app shell (the header with its brand) is on screen; on a phone the navigation is folded into a menu. */
export async function waitForShell(page) {
  await expectVisible(page.locator('header .brand'))
}

/** The app's route table, shared with the Go server. */
export function routeTable() {
  return JSON.parse(readFileSync(join(WEB_DIR, 'src/lib/routes.json'), 'utf8'))
}

/** Reads a locale file from the source tree, or null when it does not exist. */
export function localeFile(lang, ns = 'common') {
  const p = join(WEB_DIR, 'src/i18n/locales', lang, `${ns}.json`)
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null
}

/** Collects same-origin /assets/*.js request paths seen from now on. */
export function watchScripts(page) {
  const seen = []
  page.on('request', (req) => {
    const u = new URL(req.url())
    if (u.pathname.startsWith('/assets/') && u.pathname.endsWith('.js')) seen.push(u.pathname)
  })
  return seen
}

/** Per-test options: a hung browser call fails the test instead of the run. */
export const TIMEOUT = { timeout: 90_000 }

/**
 * For tests that install the service worker: Workbox precaches the app's
 * ~650 files one request after another, which takes from 10 s on an idle
 * machine to about a minute on a busy two-core one.
 */
export const SW_TIMEOUT = { timeout: 240_000 }

/** How long a service worker's install may take before a test fails. */
const SW_INSTALL_MS = 150_000

/**
 * The page's active service worker registration ({ scope, active }), or
 * { error } when nothing registers within 3 s of load or the worker does not
 * activate within SW_INSTALL_MS.
 */
export function activeServiceWorker(page) {
  return page.evaluate(async (limit) => {
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
    const deadline = Date.now() + limit
    let seen = false
    for (let i = 0; Date.now() < deadline; i++) {
      const r = await navigator.serviceWorker.getRegistration()
      if (r) seen = true
      if (r?.active) return { scope: r.scope, active: r.active.scriptURL }
      if (!r && i >= 30) break
      await sleep(100)
    }
    return {
      error: seen
        ? 'a service worker was registered but never became active (its install failed: is every precached URL served with 200?)'
        : 'no service worker was registered within 3 s of load',
    }
  }, SW_INSTALL_MS)
}

/**
 * Waits for the service worker to install, then reloads until it controls
 * the page (the first load never is).
 */
export async function waitForServiceWorker(page) {
  const reg = await activeServiceWorker(page)
  assert.equal(reg.error, undefined, reg.error)
  await waitFor(
    async () => {
      await page.reload()
      await waitForShell(page)
      return page.evaluate(() => Boolean(navigator.serviceWorker.controller))
    },
    { timeout: 20_000, interval: 250, message: 'the service worker to control the page' },
  )
  return reg
}

/**
 * A loopback HTTP proxy in front of a node, so a test can change what a path
 * serves (a new /sw.js, as after a deploy) while everything else comes from
 * the real binary. rewrites maps a path to a function of the upstream body
 * (text) that returns the body to serve.
 */
export async function startProxy(target, rewrites = {}) {
  const { createServer, request } = await import('node:http')
  const upstream = new URL(target)
  const server = createServer((req, res) => {
    const rewrite = rewrites[new URL(req.url, upstream).pathname]
    const headers = { ...req.headers, host: upstream.host }
    if (rewrite) headers['accept-encoding'] = 'identity'
    const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (upRes) => {
      if (!rewrite) {
        res.writeHead(upRes.statusCode, upRes.headers)
        upRes.pipe(res)
        return
      }
      const chunks = []
      upRes.on('data', (c) => chunks.push(c))
      upRes.on('end', () => {
        const body = Buffer.from(rewrite(Buffer.concat(chunks).toString('utf8')))
        const h = { ...upRes.headers, 'content-length': String(body.length) }
        delete h.etag
        delete h['content-encoding']
        res.writeHead(upRes.statusCode, h)
        res.end(body)
      })
    })
    up.on('error', () => {
      res.writeHead(502)
      res.end()
    })
    req.pipe(up)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// waitDelegated waits until the signed-in wallet's delegation to the node
// is committed: sign-in's second signature (the Delegate transaction) goes
// on after the header shows the account, and writes need it.
export async function waitDelegated(page, timeout = 30_000) {
  await waitFor(
    () =>
      page.evaluate(async () => {
        const r = await fetch('/api/v1/user/delegation', { headers: { Accept: 'application/json' } })
        return r.ok && (await r.json()).needed === false
      }),
    { timeout, interval: 200, message: 'the sign-in delegation to be committed' },
  )
}

// apiAs calls the API from page as its signed-in user (the session cookie
// and the stored CSRF token), checks the status and returns the JSON body.
export async function apiAs(page, method, path, body, want = 200) {
  const res = await page.evaluate(async ({ method, path, body }) => {
    const csrf = JSON.parse(localStorage.getItem('auth-storage')).state.csrfToken
    const r = await fetch(`/api/v1${path}`, { method, headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: r.status, text: await r.text() }
  }, { method, path, body })
  assert.equal(res.status, want, `${method} ${path}: ${res.text}`)
  return JSON.parse(res.text)
}
