// Gitea Actions in the browser, against the real node, git and a real
// `dforge runner` (issue 26): a pushed workflow's run shows on the
// repository's Actions tab; its page draws the jobs graph in the order of
// their needs and streams the running job's log live; a writer cancels a
// run and re-runs it; the tab and the graph's jobs work from the keyboard.
import assert from 'node:assert/strict'
import { spawn, execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { expectHidden, expectVisible, useNodeAndBrowser, waitFor, TIMEOUT } from './harness.mjs'
import { api, git, open, remoteURL, session, signUp, view, writeToken } from './people.mjs'

const env = useNodeAndBrowser()

/** Per-test options for the tests that wait on jobs running. */
const RUN_TIMEOUT = { timeout: 180_000 }

const REPO = 'ci'

// The first workflow: build prints a line, sleeps long enough for the page
// to show that line while the job runs, then prints another; after needs it.
const CI = (buildStep) => `name: CI
on: [push]
jobs:
  build:
    runs-on: self-hosted
    steps:
      - run: ${buildStep}
  after:
    needs: build
    runs-on: self-hosted
    steps:
      - run: echo done
`

const s = { alice: null, first: '', work: '', clone: '', runnerDir: '', runner: null, runnerLog: '' }

/** Shows the runner's last output under a failed test: its account of the jobs is the first thing to read. */
function showRunnerLogOnFailure(t) {
  t.after(() => {
    if (!t.passed) t.diagnostic(`runner output (last lines):\n${s.runnerLog.slice(-4_000)}`)
  })
}

/** Runs fn; when it fails, adds what the page's main region shows to the error, to tell a slow page from a wrong one. */
async function explained(page, fn) {
  try {
    await fn()
  } catch (err) {
    const shown = await page.locator('main').innerText({ timeout: 2_000 }).catch(() => '(the page could not be read)')
    err.message += `\n--- the page showed:\n${shown.slice(-3_000)}`
    throw err
  }
}

/** Registers a runner with the node (host mode) in a directory of its own and starts `dforge runner run` there. */
function startRunner(base, token) {
  const bin = process.env.DFORGE_BIN
  s.runnerDir = mkdtempSync(join(tmpdir(), 'dforge-e2e-runner-'))
  execFileSync(bin, ['runner', 'register', '--url', base, '--token', token, '--name', 'e2e', '--labels', 'self-hosted:host'], { cwd: s.runnerDir, stdio: 'pipe', timeout: 30_000 })
  const child = spawn(bin, ['runner', 'run', '--workdir', join(s.runnerDir, 'work')], { cwd: s.runnerDir, stdio: ['ignore', 'pipe', 'pipe'] })
  const keep = (d) => {
    s.runnerLog = (s.runnerLog + d).slice(-20_000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  s.runner = child
}

/** Stops the runner by its pid and waits (bounded) for it to exit. */
async function stopRunner() {
  const child = s.runner
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try { process.kill(child.pid, 'SIGTERM') } catch {}
  const timer = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL') } catch {} }, 5_000)
  await exited
  clearTimeout(timer)
}

// The runner must not outlive the test process, even when it fails hard.
process.on('exit', () => {
  if (s.runner?.pid && s.runner.exitCode === null) try { process.kill(s.runner.pid, 'SIGKILL') } catch {}
})

/** Commits the workflow with message and pushes it to main; returns the commit's sha. */
function pushWorkflow(buildStep, message) {
  mkdirSync(join(s.clone, '.gitea', 'workflows'), { recursive: true })
  writeFileSync(join(s.clone, '.gitea', 'workflows', 'ci.yml'), CI(buildStep))
  git(s.clone, 'add', '.')
  git(s.clone, 'commit', '--quiet', '-m', message)
  git(s.clone, 'push', '--quiet', 'origin', 'HEAD:main')
  return git(s.clone, 'rev-parse', 'HEAD').trim()
}

/** The link to the run at commit sha on the Actions tab: its title, which is the pushed commit's subject. */
const runLink = (page, sha) =>
  page
    .getByRole('list', { name: 'Workflow runs' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: `Commit ${sha}`, exact: true }) })
    .locator('a[href*="/actions/runs/"]')

/** Opens the Actions tab until the run at commit sha is listed (runs are made just after the push), then opens it; returns its id. */
async function openRun(page, sha) {
  const link = runLink(page, sha)
  await waitFor(
    async () => {
      await open(page, `/${s.alice.login}/${REPO}/actions`)
      await expectVisible(page.getByRole('heading', { name: 'Workflow runs', level: 1 }))
      return (await link.count()) === 1
    },
    { timeout: 30_000, interval: 1_000, message: `the run of ${sha} on the Actions tab` },
  )
  await link.click()
  await page.waitForURL(/\/actions\/runs\/\d+$/)
  return Number(/\/actions\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)[1])
}

/** Presses Tab (at most 60 times) until locator has the focus. */
async function tabTo(page, locator, what) {
  await expectVisible(locator)
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab')
    if (await locator.evaluate((el) => el === document.activeElement)) return
  }
  assert.fail(`60 presses of Tab did not reach ${what}`)
}

/** The state icon in the run page's heading. */
const runState = (page, state) => page.getByRole('heading', { level: 1 }).getByRole('img', { name: state, exact: true })

/** A line of the selected job's log, by its whole text. */
const logLine = (page, job, text) => page.getByRole('region', { name: `Log of ${job}` }).getByRole('cell', { name: text, exact: true })

describe('actions', () => {
  before(async () => {
    s.alice = await signUp(env.browser, env.node.url)
    s.work = mkdtempSync(join(tmpdir(), 'dforge-e2e-actions-'))
    const a = await session(env.browser, env.node.url, s.alice)
    try {
      await api(a.page, 'POST', '/user/repos', { name: REPO, auto_init: true, private: false }, 201)
      const { token } = await api(a.page, 'POST', `/repos/${s.alice.login}/${REPO}/actions/runners/registration-token`, undefined, 200)
      assert.ok(token, 'a registration token')
      startRunner(env.node.url, token)
      const push = await writeToken(a.page, s.alice.login)
      s.clone = join(s.work, REPO)
      git(s.work, 'clone', '--quiet', remoteURL(env.node.url, s.alice.login, REPO, s.alice.login, push), REPO)
    } finally {
      await a.close()
    }
  })
  after(async () => {
    await stopRunner()
    if (s.runnerDir) rmSync(s.runnerDir, { recursive: true, force: true })
    if (s.work) rmSync(s.work, { recursive: true, force: true })
  })

  test('a run shows its jobs in the order of their needs and streams the running job\'s log live, then succeeds', RUN_TIMEOUT, async (t) => {
    showRunnerLogOnFailure(t)
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice)
    await explained(page, async () => {
      // The tab's code is loaded before the push: the job runs only 6 s.
      await open(page, `/${s.alice.login}/${REPO}/actions`)
      s.first = pushWorkflow('echo "first line"; sleep 6; echo "last line"', 'Add CI')
      await openRun(page, s.first)

      const graph = page.getByRole('group', { name: 'Jobs' })
      await expectVisible(graph.getByRole('list', { name: 'Stage 1' }).getByRole('button', { name: /^\S+ build$/ }))
      await expectVisible(graph.getByRole('list', { name: 'Stage 2' }).getByRole('button', { name: /^\S+ after needs build$/ }))
      assert.equal(await graph.getByRole('button').count(), 2, 'the graph has the two jobs')

      const build = graph.getByRole('button', { name: /^\S+ build$/ })
      await build.click()
      // A run that ended before its page opened cannot show a line live: say so apart from a stream that failed.
      const whenOpened = await page.getByRole('region', { name: 'Log of build' }).getByRole('heading', { level: 2 }).getByRole('img').getAttribute('aria-label')
      assert.equal(await build.getAttribute('aria-pressed'), 'true', 'build is the selected job')
      const log = page.getByRole('region', { name: 'Log of build' })
      // The first line shows while the job still runs (it sleeps 6 s after
      // it), so it came over the stream, and the last is not there yet.
      await expectVisible(logLine(page, 'build', 'first line'), 60_000).catch((err) => {
        err.message += `\n(the build job was ${whenOpened} when its page opened)`
        throw err
      })
      assert.equal(await log.getByRole('heading', { level: 2 }).getByRole('img').getAttribute('aria-label'), 'Running', 'the build job runs when its first line shows')
      assert.equal(await logLine(page, 'build', 'last line').count(), 0, 'the last line is not there while the first is new')
      await expectVisible(graph.getByRole('button', { name: 'Running build', exact: true }))
      assert.equal(await page.getByText('The live stream is unavailable', { exact: false }).count(), 0, 'the page is on the live stream, not polling')

      await expectVisible(runState(page, 'Success'), 90_000)
      await expectVisible(graph.getByRole('button', { name: 'Success build', exact: true }))
      await expectVisible(graph.getByRole('button', { name: 'Success after needs build', exact: true }))
      // A finished step folds its lines away; unfolded, the last line follows the first.
      const step = log.getByRole('button', { name: 'Success Run echo "first line"; sleep 6; echo "last line"', exact: true })
      await expectVisible(step)
      if ((await step.getAttribute('aria-expanded')) === 'false') await step.click()
      await expectVisible(logLine(page, 'build', 'last line'))
      const lines = await log.getByRole('cell').allTextContents()
      assert.ok(lines.indexOf('first line') >= 0 && lines.indexOf('first line') < lines.indexOf('last line'), `first line before last line in ${JSON.stringify(lines)}`)
    })
    assert.deepEqual(pageErrors, [])
  })

  test('a writer cancels a running run, then re-runs all its jobs in a new run', RUN_TIMEOUT, async (t) => {
    showRunnerLogOnFailure(t)
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice)
    await explained(page, async () => {
      const first = await openRun(page, pushWorkflow('sleep 30', 'Sleep long'))

      const buttons = page.getByRole('group', { name: 'Run actions' })
      await expectVisible(runState(page, 'Running'), 60_000)
      await buttons.getByRole('button', { name: 'Cancel run', exact: true }).click()
      // The runner learns of the cancel at its next UpdateTask, about a second on.
      await expectVisible(runState(page, 'Cancelled'), 20_000)
      await expectHidden(buttons.getByRole('button', { name: 'Cancel run' }))
      await expectVisible(page.getByRole('group', { name: 'Jobs' }).getByRole('button', { name: 'Cancelled build', exact: true }))

      await buttons.getByRole('button', { name: 'Re-run all jobs', exact: true }).click()
      await page.waitForURL((u) => /\/actions\/runs\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/runs/${first}`), { timeout: 15_000 })
      const second = Number(/\/actions\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)[1])
      assert.notEqual(second, first)
      await expectVisible(runState(page, 'Running'), 60_000)
      await expectVisible(page.getByRole('group', { name: 'Run actions' }).getByRole('button', { name: 'Cancel run', exact: true }))
      // Stop the re-run so the runner is idle for what follows.
      await page.getByRole('group', { name: 'Run actions' }).getByRole('button', { name: 'Cancel run', exact: true }).click()
      await expectVisible(runState(page, 'Cancelled'), 20_000)
    })
    assert.deepEqual(pageErrors, [])
  })

  // Reads the run of the first test.
  test('the Actions tab and the jobs of the graph are reached and named for the keyboard', TIMEOUT, async (t) => {
    const { page, pageErrors } = await view(t, env.browser, env.node.url, s.alice)
    await open(page, `/${s.alice.login}/${REPO}`)
    const tab = page.getByRole('navigation', { name: 'Repository' }).getByRole('link', { name: 'Actions', exact: true })
    await tabTo(page, tab, 'the Actions tab')
    await page.keyboard.press('Enter')
    await page.waitForURL((u) => u.pathname === `/${s.alice.login}/${REPO}/actions`)
    assert.equal(await tab.getAttribute('aria-current'), 'page')

    await runLink(page, s.first).click()
    const graph = page.getByRole('group', { name: 'Jobs' })
    const jobs = graph.getByRole('button')
    await waitFor(async () => (await jobs.count()) === 2, { message: 'the two jobs in the graph' })
    assert.deepEqual(await jobs.evaluateAll((els) => els.map((el) => el.tagName)), ['BUTTON', 'BUTTON'], 'the jobs are real buttons')
    // Each job is named by its state and name (and what it needs).
    const build = graph.getByRole('button', { name: 'Success build', exact: true })
    const afterJob = graph.getByRole('button', { name: 'Success after needs build', exact: true })
    await tabTo(page, build, 'the build job')
    await page.keyboard.press('ArrowRight')
    assert.ok(await afterJob.evaluate((el) => el === document.activeElement), 'ArrowRight moves from build to after')
    await page.keyboard.press('Enter')
    await expectVisible(page.getByRole('region', { name: 'Log of after' }))
    assert.equal(await afterJob.getAttribute('aria-pressed'), 'true')
    assert.deepEqual(pageErrors, [])
  })
})
