// Runs Lighthouse (desktop preset, performance only) against a real dForge
// node and prints score, LCP, CLS, TBT and the gzip size of the JS that a
// first visit to / downloads. Figures only: nothing here asserts a target.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
      if (m) resolve({ url: m[0], stop: () => (child.kill('SIGTERM'), rmSync(data, { recursive: true, force: true })) })
    })
  })
}

function lighthouse(url) {
  const out = join(mkdtempSync(join(tmpdir(), 'lh-')), 'report.json')
  const args = [
    join(import.meta.dirname, 'node_modules/lighthouse/cli/index.js'),
    url,
    '--quiet',
    '--preset=desktop',
    '--only-categories=performance',
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

const node = await startNode()
try {
  console.log(`Lighthouse 12 desktop preset, ${runs} runs per page (median), node at ${node.url}`)
  console.log(`entry JS (index.html's own scripts): ${(entryJsGzip() / 1024).toFixed(1)} KB gzip`)
  console.log('page         score   LCP (s)  CLS     TBT (ms)  all JS requested (KB gzip)')
  for (const page of pages) {
    const results = []
    for (let i = 0; i < runs; i++) results.push(await lighthouse(node.url + page))
    const pick = (f) => median(results.map(f))
    const row = [
      page.padEnd(12),
      String(Math.round(pick((r) => r.categories.performance.score * 100))).padEnd(7),
      (pick((r) => r.audits['largest-contentful-paint'].numericValue) / 1000).toFixed(2).padEnd(8),
      pick((r) => r.audits['cumulative-layout-shift'].numericValue).toFixed(3).padEnd(7),
      String(Math.round(pick((r) => r.audits['total-blocking-time'].numericValue))).padEnd(9),
      (pick(allJsGzip) / 1024).toFixed(1),
    ]
    console.log(row.join(' '))
  }
} finally {
  node.stop()
}
