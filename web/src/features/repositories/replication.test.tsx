import { act, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RegisteredNode } from '@/lib/nodes'
import { json, preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import CodeScreen from './CodeScreen'
import type { ReplicaState } from './replication'
import RepositoryScreen from './RepositoryScreen'
import { REPO, repoFixture } from '@/test/forge'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('repositories', 'issues', 'wallet')

afterEach(() => {
  vi.useRealTimers()
})

const HERE = window.location.origin
const REPLICATION = `${REPO}/replication`
const TREE = [{ name: 'main.go', path: 'main.go', sha: 'f1', type: 'file', size: 120 }]
const COUNTS = { commits: 1, branches: 1, tags: 0, stars: 0, forks: 0, watchers: 0, open_issues: 0, open_pulls: 0 }

const node = (operator: string, url: string): RegisteredNode => ({ operator, url, peer_id: '12D3KooW', addrs: [], height: 3 })
const SELF = node('0x0000000000000000000000000000000000000001', HERE)
const HOLDER = node('0x0000000000000000000000000000000000000002', 'https://b.example.org')
const COPYING = node('0x0000000000000000000000000000000000000003', 'https://c.example.org:8443')
const DOWN = node('0x0000000000000000000000000000000000000004', 'https://d.example.org')
const SKIPS = node('0x0000000000000000000000000000000000000005', 'https://e.example.org')

function state(n: RegisteredNode, s: Partial<ReplicaState>): ReplicaState {
  return { node: { operator: n.operator, url: n.url }, state: 'ready', refs_done: 2, refs_total: 2, heads: {}, matches_chain: true, ...s }
}

type Answer = Response | ((init?: RequestInit) => Response | Promise<Response>)

/**
 * fetch answering by full URL: this node's API by path, other nodes by
 * origin and path. Records each request's URL and init.
 */
function stubNodes(answers: Record<string, unknown>) {
  const calls: { url: string; init?: RequestInit }[] = []
  const fetchMock = stubFetch(async (input, init) => {
    const url = String(input)
    calls.push({ url, init })
    const key = url.startsWith('/') ? url.split('?')[0] : url
    const answer = (answers[url] ?? answers[key]) as Answer | unknown
    if (answer === undefined) return json({ message: 'not found', code: 'not_found' }, 404)
    if (answer instanceof Response) return answer
    if (typeof answer === 'function') return (answer as (init?: RequestInit) => Response | Promise<Response>)(init)
    return json(answer)
  })
  return { fetchMock, calls }
}

const homeOf = (extra: Record<string, unknown>) => ({
  [REPO]: repoFixture(),
  [`${REPO}/counts`]: COUNTS,
  [`${REPO}/contents`]: TREE,
  [`${REPO}/readme`]: { path: 'README.md', html: '<p>Engine</p>' },
  ...extra,
})

const panel = () => screen.getByRole('region', { name: 'Nodes' })
const rows = () => within(within(panel()).getByRole('list')).getAllByRole('listitem')

describe('NodesPanel', () => {
  it('asks every registered node and shows which hold the repository, replicate it, skip it or do not answer', async () => {
    const api = stubNodes(
      homeOf({
        '/api/v1/nodes': [SELF, HOLDER, COPYING, DOWN, SKIPS],
        [REPLICATION]: state(SELF, {}),
        [`${HOLDER.url}${REPLICATION}`]: state(HOLDER, {}),
        [`${COPYING.url}${REPLICATION}`]: state(COPYING, { state: 'replicating', refs_done: 3, refs_total: 8, matches_chain: false }),
        [`${DOWN.url}${REPLICATION}`]: () => Promise.reject(new TypeError('Failed to fetch')),
        [`${SKIPS.url}${REPLICATION}`]: state(SKIPS, { state: 'not_seeded', refs_done: 0, refs_total: 2, matches_chain: false }),
      }),
    )
    renderScreen(<RepositoryScreen />, '/ada/engine')
    await screen.findByRole('heading', { name: 'Nodes' })
    // This node first (from the relative path, not asked twice), then the others.
    await within(panel()).findByText('Unreachable')
    await within(panel()).findByText('Does not seed it')
    const text = rows().map((r) => r.textContent)
    expect(text).toEqual([
      `${new URL(HERE).host}this nodeHolds it`,
      'b.example.org' + 'Holds it',
      'c.example.org:8443' + 'Replicating: 3 of 8 refs',
      'd.example.org' + 'Unreachable',
      'e.example.org' + 'Does not seed it',
    ])
    // Another node's copy is a link to the repository there.
    expect(within(rows()[1]).getByRole('link', { name: 'b.example.org' }).getAttribute('href')).toBe('https://b.example.org/ada/engine')
    // The replicating node's progress, for assistive technology too.
    const bar = within(rows()[2]).getByRole('progressbar', { name: 'Replication progress on c.example.org:8443' })
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemin'), bar.getAttribute('aria-valuemax'), bar.getAttribute('aria-valuetext')]).toEqual([
      '3',
      '0',
      '8',
      '3 of 8 refs',
    ])
    // Other nodes are asked without credentials or custom headers (no preflight); this node once, by its relative path.
    const remote = api.calls.find((c) => c.url === `${HOLDER.url}${REPLICATION}`)
    expect(remote?.init?.credentials).toBe('omit')
    expect([...new Headers(remote?.init?.headers).keys()]).toEqual(['accept'])
    expect(api.calls.filter((c) => c.url.endsWith(REPLICATION) && c.url.startsWith(HERE))).toEqual([])
    expect(api.calls.filter((c) => c.url === REPLICATION)).toHaveLength(1)
  })

  it('shows the loading state while nodes are asked, and a node that does not answer in time as unreachable', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    stubNodes(
      homeOf({
        '/api/v1/nodes': [HOLDER],
        [REPLICATION]: state(SELF, {}),
        // Never answers; fails, as fetch does, once aborted.
        [`${HOLDER.url}${REPLICATION}`]: (init?: RequestInit) =>
          new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      }),
    )
    renderScreen(<RepositoryScreen />, '/ada/engine')
    await screen.findByRole('heading', { name: 'Nodes' })
    await within(panel()).findByText('b.example.org')
    expect(within(rows()[1]).getByText('Checking…')).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(5000))
    expect(await within(rows()[1]).findByText('Unreachable')).toBeTruthy()
  })

  it('says when the node registry cannot be loaded, and what a private repository is', async () => {
    stubNodes(homeOf({ '/api/v1/nodes': json({ message: 'boom', code: 'internal' }, 500), [REPLICATION]: state(SELF, {}) }))
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const alert = await within(await screen.findByRole('region', { name: 'Nodes' })).findByRole('alert')
    expect(alert.textContent).toMatch('Could not load the node registry.')
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy()
  })

  it('asks no node about a private repository', async () => {
    const api = stubNodes(homeOf({ [REPO]: repoFixture({ private: true }), '/api/v1/nodes': [HOLDER] }))
    renderScreen(<RepositoryScreen />, '/ada/engine')
    expect(await within(await screen.findByRole('region', { name: 'Nodes' })).findByText('A private repository stays on this node: it is never replicated.')).toBeTruthy()
    expect(api.calls.filter((c) => c.url.includes('/replication') || c.url.includes('/nodes'))).toEqual([])
  })
})

describe('a repository on its way to this node', () => {
  it('shows "Replicating… n of m refs" instead of a missing page, asks again every 2 s, and shows the code once ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let replicated = false
    const answers = [
      state(SELF, { state: 'replicating', refs_done: 1, refs_total: 4, matches_chain: false }),
      state(SELF, { state: 'replicating', refs_done: 3, refs_total: 4, matches_chain: false }),
      state(SELF, { state: 'ready', refs_done: 4, refs_total: 4 }),
    ]
    let asked = 0
    stubNodes(
      homeOf({
        [REPO]: () =>
          json(replicated ? repoFixture({ has_git_data: true }) : repoFixture({ has_git_data: false, empty: true, replication: schemaFixture('Replication', { state: 'replicating', done: 0, total: 4 }) })),
        '/api/v1/nodes': [],
        [REPLICATION]: () => {
          const a = answers[Math.min(asked++, answers.length - 1)]
          replicated = a.state === 'ready'
          return json(a)
        },
      }),
    )
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const view = await screen.findByRole('region', { name: 'Replicating…' })
    expect(await within(view).findByText('1 of 4 refs')).toBeTruthy()
    const bar = within(view).getByRole('progressbar', { name: 'Replication progress' })
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemax')]).toEqual(['1', '4'])
    expect(screen.queryByText('This repository is empty')).toBeNull()
    expect(screen.queryByText('Repository not found')).toBeNull()

    await act(() => vi.advanceTimersByTimeAsync(2000))
    expect(await within(view).findByText('3 of 4 refs')).toBeTruthy()
    expect(bar.getAttribute('aria-valuenow')).toBe('3')

    await act(() => vi.advanceTimersByTimeAsync(2000))
    expect(await screen.findByRole('link', { name: 'main.go' })).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Replicating…' })).toBeNull()
  })

  it('turns a code route\'s 503 "replicating" into the progress view', async () => {
    stubNodes({
      [REPO]: repoFixture(),
      [`${REPO}/contents/cmd`]: json({ message: 'The git data of ada/engine is being copied to this node.', code: 'replicating' }, 503),
      [`${REPO}/branches`]: [],
      [`${REPO}/tags`]: [],
      [REPLICATION]: state(SELF, { state: 'replicating', refs_done: 0, refs_total: 0, matches_chain: false }),
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd')
    const view = await screen.findByRole('region', { name: 'Replicating…' })
    expect(await within(view).findByText('Finding the refs to copy…')).toBeTruthy()
    // Total not known yet: an indeterminate bar.
    expect(within(view).getByRole('progressbar').hasAttribute('aria-valuenow')).toBe(false)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('says the last attempt failed while it is retried', async () => {
    stubNodes(
      homeOf({
        [REPO]: repoFixture({ has_git_data: false, empty: true, replication: { state: 'failed', done: 0, total: 2, error: 'no peer' } }),
        '/api/v1/nodes': [],
        [REPLICATION]: state(SELF, { state: 'failed', refs_done: 0, refs_total: 2, error: 'no dForge peer sent the objects', matches_chain: false }),
      }),
    )
    renderScreen(<RepositoryScreen />, '/ada/engine')
    expect(await screen.findByText('The last attempt failed (no dForge peer sent the objects); it is retried.')).toBeTruthy()
    expect(screen.getByText('0 of 2 refs')).toBeTruthy()
  })
})
