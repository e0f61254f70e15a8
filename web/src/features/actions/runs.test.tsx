import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { noContent, REPO, repoFixture, stubApi } from '@/test/forge'
import RunsScreen from './RunsScreen'
import { ACTIONS, runFixture } from './testing'

preloadNamespaces('actions', 'repositories', 'wallet')

const RUNS = [
  runFixture(),
  runFixture({ id: 41, run_number: 6, display_title: 'Add a lexer', state: 'success', conclusion: 'success', event: 'pull_request', head_branch: 'lexer', head_sha: '1234567890abcdef1234567890abcdef12345678', actor: { login: 'grace', avatar_url: '' } }),
]

function stub(runs = RUNS, over: Record<string, unknown> = {}) {
  return stubApi({
    ...over,
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${ACTIONS}/workflows`]: { workflows: [{ id: 'ci.yml', name: 'CI', path: '.gitea/workflows/ci.yml', state: 'active' }], total_count: 1 },
    [`GET ${ACTIONS}/runs`]: (_: unknown, url: URL) => {
      const status = url.searchParams.get('status')
      const list = status ? runs.filter((r) => r.state === status) : runs
      return new Response(JSON.stringify({ workflow_runs: list, total_count: list.length }), {
        headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(list.length) },
      })
    },
  })
}

// The first test pays for the screen's chunks and locales; a loaded 2-core machine needs more than 5 s.
describe('RunsScreen', { timeout: 15_000 }, () => {
  it('lists runs with their workflow, event, branch, commit, actor and state, each linking to its page', async () => {
    stub()
    renderScreen(<RunsScreen />, '/ada/engine/actions')
    const list = await screen.findByRole('list', { name: 'Workflow runs' })
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    const first = items[0]
    expect(within(first).getByRole('link', { name: 'Fix the parser' }).getAttribute('href')).toBe('/ada/engine/actions/runs/42')
    expect(within(first).getByRole('img', { name: 'Failure' })).toBeTruthy()
    expect(within(first).getByText('ci.yml #7')).toBeTruthy()
    expect(within(first).getByText('push')).toBeTruthy()
    expect(within(first).getByText('main')).toBeTruthy()
    expect(within(first).getByRole('link', { name: `Commit ${RUNS[0].head_sha}` }).getAttribute('href')).toBe(`/ada/engine/commit/${RUNS[0].head_sha}`)
    expect(within(first).getByText('abcdef0')).toBeTruthy()
    expect(within(first).getByText('by ada')).toBeTruthy()
    expect(within(items[1]).getByRole('img', { name: 'Success' })).toBeTruthy()
    expect(within(items[1]).getByText('by grace')).toBeTruthy()
    // The tab is there and current.
    expect(screen.getByRole('link', { name: 'Actions' }).getAttribute('aria-current')).toBe('page')
  })

  it('sends a chosen filter to the API and keeps it in the URL', async () => {
    const api = stub()
    renderScreen(<RunsScreen />, '/ada/engine/actions')
    await screen.findByRole('list', { name: 'Workflow runs' })
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'success' } })
    await waitFor(() => expect(screen.getAllByRole('listitem').filter((li) => li.closest('.action-runs'))).toHaveLength(1))
    expect(screen.getByRole('link', { name: 'Add a lexer' })).toBeTruthy()
    const last = api.sent('GET', `${ACTIONS}/runs`).at(-1)!
    expect(new URLSearchParams(last.url.split('?')[1]).get('status')).toBe('success')
    expect(window.location.search).toBe('?status=success')

    fireEvent.change(screen.getByLabelText('Branch'), { target: { value: 'lexer' } })
    fireEvent.change(screen.getByLabelText('Workflow'), { target: { value: 'ci.yml' } })
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }))
    await waitFor(() => {
      const q = new URLSearchParams(api.sent('GET', `${ACTIONS}/runs`).at(-1)!.url.split('?')[1])
      expect([q.get('branch'), q.get('workflow'), q.get('status'), q.get('page'), q.get('limit')]).toEqual(['lexer', 'ci.yml', 'success', '1', '20'])
    })
  })

  it('says when there are no runs', async () => {
    stub([])
    renderScreen(<RunsScreen />, '/ada/engine/actions')
    expect(await screen.findByText(/No workflow has run yet/)).toBeTruthy()
  })

  it('shows the chosen workflow’s badge, and lets a writer start it with inputs', async () => {
    const api = stub(RUNS, { [`POST ${ACTIONS}/workflows/ci.yml/dispatches`]: noContent() })
    signIn()
    renderScreen(<RunsScreen />, '/ada/engine/actions?workflow=ci.yml')
    const badge = await screen.findByRole('img', { name: 'ci.yml status badge' })
    expect(badge.getAttribute('src')).toBe('/ada/engine/actions/workflows/ci.yml/badge.svg?branch=main')
    expect(screen.getByRole('figure').querySelector('code')?.textContent).toBe(`![ci.yml](${window.location.origin}/ada/engine/actions/workflows/ci.yml/badge.svg?branch=main)`)
    const form = screen.getByRole('form', { name: 'Run ci.yml' })
    fireEvent.change(within(form).getByLabelText('Inputs'), { target: { value: 'version=1.2\n\ndry_run = true' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Run workflow' }))
    expect(await within(form).findByText('The run has been queued.')).toBeTruthy()
    expect(api.sent('POST', `${ACTIONS}/workflows/ci.yml/dispatches`).map((c) => c.body)).toEqual([{ ref: 'main', inputs: { version: '1.2', dry_run: 'true' } }])
  })

  it('gives a reader the badge but no way to start a workflow', async () => {
    stub()
    renderScreen(<RunsScreen />, '/ada/engine/actions?workflow=ci.yml')
    expect(await screen.findByRole('img', { name: 'ci.yml status badge' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Run workflow' })).toBeNull()
  })
})
