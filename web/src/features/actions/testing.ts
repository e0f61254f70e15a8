// Fixtures for the actions tests: runs and jobs in the contract's shapes,
// and a stand-in for the browser's EventSource that a test drives.
import { vi } from 'vitest'
import type { Job, Run } from './api'

export const ACTIONS = '/api/v1/repos/ada/engine/actions'

export function runFixture(over: Partial<Run> = {}): Run {
  return {
    id: 42,
    run_number: 7,
    display_title: 'Fix the parser',
    path: 'ci.yml',
    event: 'push',
    head_sha: 'abcdef0123456789abcdef0123456789abcdef01',
    head_branch: 'main',
    status: 'completed',
    conclusion: 'failure',
    state: 'failure',
    actor: { login: 'ada', avatar_url: '' },
    started_at: '2026-01-02T00:00:00Z',
    completed_at: '2026-01-02T00:05:00Z',
    created_at: '2026-01-02T00:00:00Z',
    html_url: 'http://localhost/ada/engine/actions/runs/42',
    error: '',
    ...over,
  }
}

export function jobFixture(over: Partial<Job> & Pick<Job, 'id' | 'name'>): Job {
  return { run_id: 42, key: over.name, needs: [], status: 'completed', state: 'success', steps: [], labels: ['ubuntu-latest'], ...over }
}

/** A fake EventSource: tests find the one the page opened and emit events on it. */
export class FakeEventSource {
  static opened: FakeEventSource[] = []
  /** Whether a new stream fails at once, as one the server refuses does. */
  static failing = false
  url: string
  withCredentials: boolean
  closed = false
  private listeners = new Map<string, Set<(e: Event) => void>>()
  constructor(url: string, init?: { withCredentials?: boolean }) {
    this.url = url
    this.withCredentials = init?.withCredentials ?? false
    FakeEventSource.opened.push(this)
    if (FakeEventSource.failing) setTimeout(() => this.emit('error'), 0)
  }
  addEventListener(type: string, fn: (e: Event) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set())
    this.listeners.get(type)!.add(fn)
  }
  removeEventListener(type: string, fn: (e: Event) => void) {
    this.listeners.get(type)?.delete(fn)
  }
  close() {
    this.closed = true
  }
  emit(type: string, data?: unknown) {
    const e = data === undefined ? new Event(type) : new MessageEvent(type, { data: JSON.stringify(data) })
    for (const fn of this.listeners.get(type) ?? []) fn(e)
  }
}

/** Puts FakeEventSource in place of the browser's for the current test. */
export function stubEventSource(failing = false) {
  FakeEventSource.opened = []
  FakeEventSource.failing = failing
  vi.stubGlobal('EventSource', FakeEventSource)
}
