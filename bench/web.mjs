// Runs Lighthouse (desktop preset, performance and accessibility) against a
// real dForge node and prints both scores, LCP, CLS, TBT and the gzip size
// of the JS each visit downloads, on /, /explore, /governance, a repository's
// home and a pull request's files. A signed-in wallet (the browser tests'
// headless wallet) first makes that repository and pull request through the
// API; Lighthouse then visits as an anonymous reader. Figures only: nothing
// here asserts a target.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchBrowser, waitDelegated, waitForShell } from '../web/e2e/harness.mjs'
import { generatePrivateKey, headlessWallet, TEST_WALLET_NAME } from '../web/e2e/wallet.mjs'

const root = new URL('..', import.meta.url).pathname
const bin = process.env.DFORGE_BIN ?? join(root, 'bin/dforge')
const dist = join(root, 'web/dist')
const pages = ['/', '/explore', '/governance']
const runs = Number(process.env.RUNS ?? 3)

function startNode() {
  const data = mkdtempSync(join(tmpdir(), 'dforge-bench-'))
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--rpc-addr', 'tcp://127.0.0.1:0', '--p2p-addr', 'tcp://127.0.0.1:0', '--data', data], { stdio: ['ignore', 'pipe', 'ignore'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`dforge exited with ${code}`)))
    child.stdout.on('data', (chunk) => {
      const m = /http:\/\/[\d.:]+/.exec(String(chunk))
      if (m) resolve({ url: m[0], stop: () => stopNode(child, data) })
    })
  })
}

// Ends the node and removes its data once it has exited: removing it while
// the node still writes its chain's WAL failed with ENOTEMPTY.
function stopNode(child, data) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      rmSync(data, { recursive: true, force: true })
      resolve()
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
    }, 30_000)
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.removeAllListeners('exit')
    child.once('exit', done)
    child.kill('SIGTERM')
  })
}

function lighthouse(url) {
  const out = join(mkdtempSync(join(tmpdir(), 'lh-')), 'report.json')
  const args = [
    join(import.meta.dirname, 'node_modules/lighthouse/cli/index.js'),
    url,
    '--quiet',
    '--preset=desktop',
    '--only-categories=performance,accessibility',
    '--output=json',
    `--output-path=${out}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run',
  ]
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' } })
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(readFileSync(out, 'utf8'))) : reject(new Error(`lighthouse exited ${code}`))))
  })
}

function gzipSize(pathname) {
  const path = join(dist, pathname)
  return existsSync(`${path}.gz`) ? statSync(`${path}.gz`).size : existsSync(path) ? statSync(path).size : 0
}

// The entry bundle: the scripts index.html loads itself (module + modulepreload).
function entryJsGzip() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const srcs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
  return [...new Set(srcs)].reduce((n, s) => n + gzipSize(s), 0)
}

// Every script the visit requested, lazy chunks included (the screen, web-vitals).
function allJsGzip(report) {
  return report.audits['network-requests'].details.items
    .filter((r) => r.resourceType === 'Script')
    .reduce((n, r) => n + gzipSize(new URL(r.url).pathname), 0)
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Signs a fresh wallet in, makes a public repository with a pull request, and returns their paths. */
async function seed(url) {
  const browser = await launchBrowser()
  try {
    const page = await (await browser.newContext({ baseURL: url, serviceWorkers: 'block' })).newPage()
    const wallet = headlessWallet(generatePrivateKey())
    await wallet.install(page)
    await page.goto('/explore')
    await waitForShell(page)
    await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
    await waitDelegated(page)
    const login = `user-${wallet.address.slice(2, 22).toLowerCase()}`
    const call = (method, path, body) =>
      page.evaluate(
        async ({ method, path, body }) => {
          const csrf = JSON.parse(localStorage.getItem('auth-storage')).state.csrfToken
          const res = await fetch(`/api/v1${path}`, { method, headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify(body) })
          if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
          return res.json()
        },
        { method, path, body },
      )
    const b64 = (s) => Buffer.from(s).toString('base64')
    await call('POST', '/user/repos', { name: 'bench', auto_init: true, description: 'A repository for the page-speed benchmark' })
    const files = (prefix) => ['cmd/bench/main.go', 'internal/mill/divide.go', 'internal/mill/multiply.go', 'docs/guide.md'].map((path) => ({ operation: 'create', path: prefix + path, content: b64(`// ${path}\npackage mill\n\nfunc Divide(a, b int) int { return a / b }\n`) }))
    await call('POST', `/repos/${login}/bench/contents`, { branch: 'main', message: 'Add the mill', files: files('') })
    await call('POST', `/repos/${login}/bench/contents`, { branch: 'main', new_branch: 'feature', message: 'More of the mill', files: files('more/') })
    const pr = await call('POST', `/repos/${login}/bench/pulls`, { head: 'feature', base: 'main', title: 'More of the mill' })
    return [`/${login}/bench`, `/${login}/bench/pulls/${pr.number}?tab=files`]
  } finally {
    await browser.close()
  }
}

const node = await startNode()
try {
  console.log(`Lighthouse 12 desktop preset, ${runs} runs per page (median), node at ${node.url}`)
  console.log(`entry JS (index.html's own scripts): ${(entryJsGzip() / 1024).toFixed(1)} KB gzip`)
  const [repoHome, pullFiles] = await seed(node.url)
  pages.push(repoHome, pullFiles)
  console.log('performance and accessibility scores; repository pages are a seeded public repository and its pull request')
  console.log('page                                     perf  a11y  LCP (s)  CLS     TBT (ms)  all JS requested (KB gzip)')
  for (const page of pages) {
    const results = []
    for (let i = 0; i < runs; i++) results.push(await lighthouse(node.url + page))
    const pick = (f) => median(results.map(f))
    const row = [
      page.replace(/user-[0-9a-f]+/, 'user').padEnd(40),
      String(Math.round(pick((r) => r.categories.performance.score * 100))).padEnd(5),
      String(Math.round(pick((r) => r.categories.accessibility.score * 100))).padEnd(5),
      (pick((r) => r.audits['largest-contentful-paint'].numericValue) / 1000).toFixed(2).padEnd(8),
      pick((r) => r.audits['cumulative-layout-shift'].numericValue).toFixed(3).padEnd(7),
      String(Math.round(pick((r) => r.audits['total-blocking-time'].numericValue))).padEnd(9),
      (pick(allJsGzip) / 1024).toFixed(1),
    ]
    console.log(row.join(' '))
  }
} finally {
  await node.stop()
}
