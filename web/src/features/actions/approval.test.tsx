import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { schemaFixture } from '@/test/schemaFixture'
import { useAuthStore } from '@/stores/auth'
import type { Run } from './api'
import RunScreen from './RunScreen'
import RunsScreen from './RunsScreen'
import { ACTIONS, jobFixture, runFixture, stubEventSource } from './testing'

preloadNamespaces('actions', 'repositories', 'wallet')

const NOTICE = "This run needs a maintainer's approval"

// A first-time contributor's pull request from a fork, waiting for a writer.
const held = (over: Partial<Run> = {}) =>
  runFixture({
    state: 'blocked',
    status: 'queued',
    conclusion: '',
    completed_at: '',
    event: 'pull_request',
    head_branch: '',
    actor: { login: 'mallory', avatar_url: '' },
    need_approval: true,
    approved_by: null,
    ...over,
  })

const JOBS = { jobs: [jobFixture({ id: 1, name: 'test', state: 'blocked', status: 'queued' })], total_count: 1 }

function signInAs(username: string) {
  act(() => useAuthStore.getState().login({ username }, 'test-token'))
}

// The first test pays for the screen's chunks and locales; a loaded 2-core machine needs more than 5 s.
describe('approval of a first-time contributor’s run', { timeout: 15_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('lets a writer approve the run, which then shows who approved it', async () => {
    stubEventSource(true)
    signInAs('grace')
    let run = held()
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { pull: true, push: true }) }),
      [`GET ${ACTIONS}/runs/42`]: () => run,
      [`GET ${ACTIONS}/runs/42/jobs`]: JOBS,
      [`POST ${ACTIONS}/runs/42/approve`]: () => {
        run = held({ state: 'waiting', approved_by: { login: 'grace', avatar_url: '' } })
        return run
      },
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    const notice = (await screen.findByText(NOTICE)).closest('[role="status"]') as HTMLElement
    fireEvent.click(within(notice).getByRole('button', { name: 'Approve' }))
    await waitFor(() => expect(screen.queryByText(NOTICE)).toBeNull())
    expect(api.sent('POST', `${ACTIONS}/runs/42/approve`)).toHaveLength(1)
    expect(screen.getByText('Approved by')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'grace' }).getAttribute('href')).toBe('/user/grace')
  })

  it('shows why the approval was refused', async () => {
    stubEventSource(true)
    signInAs('grace')
    stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { pull: true, push: true }) }),
      [`GET ${ACTIONS}/runs/42`]: held(),
      [`GET ${ACTIONS}/runs/42/jobs`]: JOBS,
      [`POST ${ACTIONS}/runs/42/approve`]: new Response(JSON.stringify({ message: 'run 7 is already approved', code: 'run_approved' }), {
        status: 409,
        headers: { 'Content-Type': 'application/json' },
      }),
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }))
    expect((await screen.findByRole('alert')).textContent).toContain('run 7 is already approved')
  })

  it('tells a reader the run waits, without a button', async () => {
    stubEventSource(true)
    signInAs('mallory')
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${ACTIONS}/runs/42`]: held(),
      [`GET ${ACTIONS}/runs/42/jobs`]: JOBS,
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    expect(await screen.findByText(NOTICE)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
    expect(screen.getAllByRole('img', { name: 'Blocked' }).length).toBeGreaterThan(0)
  })

  it('says nothing of approval once the run ended or for a run that needs none', async () => {
    stubEventSource(true)
    signInAs('grace')
    stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { pull: true, push: true }) }),
      [`GET ${ACTIONS}/runs/42`]: held({ state: 'cancelled', status: 'completed', conclusion: 'cancelled' }),
      [`GET ${ACTIONS}/runs/42/jobs`]: JOBS,
    })
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    await screen.findByRole('group', { name: 'Jobs' })
    expect(screen.queryByText(NOTICE)).toBeNull()
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
  })

  it('marks a waiting run in the runs list', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${ACTIONS}/workflows`]: { workflows: [], total_count: 0 },
      [`GET ${ACTIONS}/runs`]: { workflow_runs: [held(), runFixture({ id: 41, run_number: 6 })], total_count: 2 },
    })
    renderScreen(<RunsScreen />, '/ada/engine/actions')
    const items = within(await screen.findByRole('list', { name: 'Workflow runs' })).getAllByRole('listitem')
    expect(within(items[0]).getByRole('img', { name: 'Blocked' })).toBeTruthy()
    expect(within(items[0]).getByText('Needs approval')).toBeTruthy()
    expect(within(items[1]).queryByText('Needs approval')).toBeNull()
  })
})
