import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { schemaFixture } from '@/test/schemaFixture'
import { nav } from '@/lib/forge/nav'
import { useAuthStore } from '@/stores/auth'
import type { Job, LogRow } from './api'
import RunScreen from './RunScreen'
import { ACTIONS, FakeEventSource, jobFixture, runFixture, stubEventSource } from './testing'

preloadNamespaces('actions', 'repositories')

const ESC = String.fromCharCode(27)
const NOT_FOUND = 'This could not be found.'
const row = (index: number, content: string): LogRow => ({ index, time: `2026-01-02T00:00:0${index}Z`, content })

// Given out of order: the graph puts each job right of what it needs.
const JOBS: Job[] = [
  jobFixture({
    id: 2,
    name: 'test',
    needs: ['build'],
    state: 'failure',
    steps: [
      { number: 1, name: 'Checkout', status: 'completed', state: 'success', log_index: 2, log_length: 2 },
      { number: 2, name: 'Run tests', status: 'completed', state: 'failure', log_index: 4, log_length: 3 },
    ],
  }),
  jobFixture({ id: 3, name: 'deploy', needs: ['test'], state: 'skipped' }),
  jobFixture({ id: 1, name: 'build' }),
  jobFixture({ id: 4, name: 'lint' }),
]

const LOG: LogRow[] = [
  row(0, 'runner: host'),
  row(1, 'job: test'),
  row(2, 'git fetch origin'),
  row(3, 'HEAD is now at abcdef0'),
  row(4, 'go test ./...'),
  row(5, `${ESC}[31mFAIL${ESC}[0m TestParse: panic: nil map`),
  row(6, 'exit status 1'),
]

const writer = () => repoFixture({ permissions: schemaFixture('Perm', { pull: true, push: true }) })

function stub(over: Record<string, unknown> = {}) {
  return stubApi({
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${ACTIONS}/runs/42`]: runFixture(),
    [`GET ${ACTIONS}/runs/42/jobs`]: { jobs: JOBS, total_count: JOBS.length },
    [`GET ${ACTIONS}/jobs/2/log`]: (_: unknown, url: URL) => {
      const from = Number(url.searchParams.get('from'))
      return { rows: LOG.slice(from), next: LOG.length, done: true }
    },
    ...over,
  })
}

/** A stream that cannot be opened: the page reads the JSON endpoints. */
function failingStream() {
  stubEventSource(true)
}

const graphColumns = () => within(screen.getByRole('group', { name: 'Jobs' })).getAllByRole('list').map((col) => within(col).getAllByRole('button').map((b) => b.textContent))

// The first test pays for the screen's chunks and locales; a loaded 2-core machine needs more than 5 s.
describe('RunScreen', { timeout: 15_000 }, () => {
  beforeEach(() => {
    FakeEventSource.opened = []
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('draws the jobs in columns by their needs and shows the failed job’s steps with their log lines', async () => {
    failingStream()
    stub()
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    await screen.findByRole('group', { name: 'Jobs' })
    expect(graphColumns()).toEqual([
      ['✓ build', '✓ lint'],
      ['✗ test needs build'],
      ['⤼ deploy needs test'],
    ])
    // The failed job is chosen, and its failed step is open.
    expect(screen.getByRole('button', { name: 'Failure test needs build', pressed: true })).toBeTruthy()
    const failed = await screen.findByRole('table', { name: 'Run tests output of test' })
    const lines = within(failed).getAllByRole('row').map((r) => Array.from((r as HTMLTableRowElement).cells).map((c) => c.textContent))
    expect(lines).toEqual([
      ['1', '00:00:04', 'go test ./...'],
      ['2', '00:00:05', 'FAIL TestParse: panic: nil map'],
      ['3', '00:00:06', 'exit status 1'],
    ])
    // The others are folded until opened.
    expect(screen.queryByRole('table', { name: 'Checkout output of test' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: /Checkout/ }))
    expect(within(screen.getByRole('table', { name: 'Checkout output of test' })).getByText('git fetch origin')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /Set up job/ }))
    expect(within(screen.getByRole('table', { name: 'Set up job output of test' })).getByText('runner: host')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Download log' }).getAttribute('href')).toBe(`${ACTIONS}/jobs/2/logs`)
    expect(screen.getByText(/live stream is unavailable/)).toBeTruthy()
  })

  it('filters the log lines by the search and marks the match', async () => {
    failingStream()
    stub()
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    await screen.findByRole('table', { name: 'Run tests output of test' })
    fireEvent.change(screen.getByLabelText('Search the log'), { target: { value: 'PANIC' } })
    expect(screen.getByText('1 matching line')).toBeTruthy()
    const table = screen.getByRole('table', { name: 'Run tests output of test' })
    expect(within(table).getAllByRole('row')).toHaveLength(1)
    expect((within(table).getAllByRole('row')[0] as HTMLTableRowElement).cells[0].textContent).toBe('2')
    expect(table.querySelector('mark')?.textContent).toBe('panic')
    expect(screen.queryByRole('table', { name: 'Checkout output of test' })).toBeNull()
  })

  it('moves between jobs with the arrow keys and shows the chosen job’s steps', async () => {
    failingStream()
    stub({
      [`GET ${ACTIONS}/jobs/1/log`]: { rows: [row(0, 'compiling')], next: 1, done: true },
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    await screen.findByRole('group', { name: 'Jobs' })
    // The arrow keys walk the graph: right to what needs it, down the column.
    const build = screen.getByRole('button', { name: 'Success build' })
    build.focus()
    fireEvent.keyDown(build, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Success lint' }))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Failure test needs build' }))
    fireEvent.click(build)
    expect(screen.getByRole('button', { name: 'Success build', pressed: true })).toBeTruthy()
    fireEvent.click(await screen.findByRole('button', { name: /Set up job/ }))
    expect(await screen.findByText('compiling')).toBeTruthy()
    expect(window.location.search).toBe('?job=1')
  })

  it('follows the run’s stream: run, job and log events update the page without a fetch of the log', async () => {
    stubEventSource()
    const running = runFixture({ state: 'running', status: 'in_progress', conclusion: '' })
    const job = jobFixture({
      id: 2,
      name: 'test',
      state: 'running',
      steps: [{ number: 1, name: 'Run tests', status: 'in_progress', state: 'running', log_index: 0, log_length: 0 }],
    })
    const api = stub({ [`GET ${ACTIONS}/runs/42`]: running, [`GET ${ACTIONS}/runs/42/jobs`]: { jobs: [job], total_count: 1 } })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    await screen.findByRole('group', { name: 'Jobs' })
    const source = FakeEventSource.opened[0]
    expect(source.url).toBe(`${ACTIONS}/runs/42/stream`)
    expect(source.withCredentials).toBe(true)
    act(() => {
      source.emit('run', running)
      source.emit('job', job)
      source.emit('log', { job: 2, rows: [row(0, 'go test ./...'), row(1, `${ESC}[32mok${ESC}[0m parser`)] })
    })
    const table = await screen.findByRole('table', { name: 'Run tests output of test' })
    expect(within(table).getByText('ok parser')).toBeTruthy()
    act(() => source.emit('log', { job: 2, rows: [row(2, 'PASS')] }))
    expect(await within(screen.getByRole('table', { name: 'Run tests output of test' })).findByText('PASS')).toBeTruthy()
    // The job and then the run end.
    act(() => {
      source.emit('job', { ...job, state: 'success', steps: [{ ...job.steps![0], state: 'success', status: 'completed', log_length: 3 }] })
      source.emit('run', { ...running, state: 'success' })
      source.emit('end', {})
    })
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).querySelector('[aria-label="Success"]')).toBeTruthy())
    expect(source.closed).toBe(true)
    expect(api.sent('GET', `${ACTIONS}/jobs/2/log`)).toHaveLength(0)
  })

  it('shows the parser’s error of a malformed workflow', async () => {
    failingStream()
    stub({
      [`GET ${ACTIONS}/runs/42`]: runFixture({ error: 'yaml: line 3: mapping values are not allowed here' }),
      [`GET ${ACTIONS}/runs/42/jobs`]: { jobs: [], total_count: 0 },
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('The workflow could not be read:')
    expect(alert.textContent).toContain('mapping values are not allowed here')
  })

  it('lets a writer cancel a running run', async () => {
    failingStream()
    // A collaborator with push, not the owner: the repository's permissions decide.
    act(() => useAuthStore.getState().login({ username: 'grace' }, 'test-token'))
    const api = stub({
      [`GET ${REPO}`]: writer(),
      [`GET ${ACTIONS}/runs/42`]: runFixture({ state: 'running', status: 'in_progress' }),
      [`POST ${ACTIONS}/runs/42/cancel`]: {},
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel run' }))
    await waitFor(() => expect(api.sent('POST', `${ACTIONS}/runs/42/cancel`)).toHaveLength(1))
    expect(screen.queryByRole('button', { name: 'Re-run all jobs' })).toBeNull()
  })

  it('lets a writer re-run the failed jobs, or all, and goes to the new run', async () => {
    failingStream()
    signIn()
    const go = vi.spyOn(nav, 'go').mockImplementation(() => {})
    const api = stub({
      [`GET ${REPO}`]: writer(),
      [`POST ${ACTIONS}/runs/42/rerun-failed-jobs`]: runFixture({ id: 43, state: 'waiting' }),
      [`POST ${ACTIONS}/runs/42/rerun`]: runFixture({ id: 44, state: 'waiting' }),
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull()
    fireEvent.click(await screen.findByRole('button', { name: 'Re-run failed jobs' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/actions/runs/43'))
    fireEvent.click(screen.getByRole('button', { name: 'Re-run all jobs' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/actions/runs/44'))
    expect(api.sent('POST', `${ACTIONS}/runs/42/rerun-failed-jobs`)).toHaveLength(1)
    expect(api.sent('POST', `${ACTIONS}/runs/42/rerun`)).toHaveLength(1)
  })

  it('shows why a re-run was refused', async () => {
    failingStream()
    signIn()
    stub({
      [`GET ${REPO}`]: writer(),
      [`POST ${ACTIONS}/runs/42/rerun`]: new Response(JSON.stringify({ message: 'the workflow is gone', code: 'not_found' }), { status: 409, headers: { 'Content-Type': 'application/json' } }),
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    fireEvent.click(await screen.findByRole('button', { name: 'Re-run all jobs' }))
    expect((await screen.findByRole('alert')).textContent).toContain('the workflow is gone')
    expect(screen.getByRole('button', { name: 'Re-run all jobs' }).hasAttribute('disabled')).toBe(false)
  })

  it('gives a reader no cancel or re-run', async () => {
    failingStream()
    act(() => useAuthStore.getState().login({ username: 'grace' }, 'test-token'))
    stub({ [`GET ${ACTIONS}/runs/42`]: runFixture({ state: 'running' }) })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    await screen.findByRole('group', { name: 'Jobs' })
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Re-run/ })).toBeNull()
  })

  it('says a run that is not there is not found, with nothing to retry', async () => {
    failingStream()
    stub()
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/99')
    expect(await screen.findByText(NOT_FOUND)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })
})
