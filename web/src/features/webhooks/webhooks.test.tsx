import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { noContent, REPO, repoFixture, stubApi } from '@/test/forge'
import type { Delivery, Hook } from './api'
import WebhooksScreen from './WebhooksScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('webhooks', 'repositories', 'wallet')

const admin = repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) })

const HOOK: Hook = schemaFixture('Hook', {
  id: 3,
  type: 'gitea',
  branch_filter: '',
  config: { url: 'https://ci.example.org/hook', content_type: 'json', http_method: 'POST' },
  events: ['push', 'issues'],
  active: true,
  created_at: '2026-01-02T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
})

const DELIVERY: Delivery = schemaFixture('Delivery', {
  id: 9,
  uuid: '6f1c0d8e-1111-4222-8333-944455556666',
  event: 'push',
  event_type: 'push',
  state: 'failed',
  is_succeed: false,
  attempts: 5,
  error: 'the receiver answered 500 Internal Server Error',
  duration_ms: 12,
  created_at: '2026-01-02T00:00:00Z',
  delivered_at: '2026-01-02T00:00:01Z',
  next_attempt_at: null,
  request: { url: 'https://ci.example.org/hook', headers: { 'X-Gitea-Event': 'push' }, body: '{"ref": "refs/heads/main"}' },
  response: { status: 500, headers: { 'Content-Type': 'text/plain' }, body: 'boom' },
})

describe('WebhooksScreen', () => {
  it('tells a reader without admin rights that only administrators manage webhooks', async () => {
    const bobs = '/api/v1/repos/bob/engine'
    const api = stubApi({ [`GET ${bobs}`]: repoFixture({ owner: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), full_name: 'bob/engine' }) })
    signIn()
    renderScreen(<WebhooksScreen />, '/bob/engine/settings/hooks')
    expect(await screen.findByText("Only the repository's administrators manage its webhooks.")).toBeTruthy()
    expect(api.sent('GET', `${bobs}/hooks`)).toHaveLength(0)
  })

  it('shows the empty state, then creates a form hook with its secret and events', async () => {
    let created: unknown
    const api = stubApi({
      [`GET ${REPO}`]: admin,
      [`GET ${REPO}/hooks`]: [],
      [`POST ${REPO}/hooks`]: (body: unknown) => {
        created = body
        return HOOK
      },
    })
    signIn()
    renderScreen(<WebhooksScreen />, '/ada/engine/settings/hooks')
    expect(await screen.findByText('No webhooks yet.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }))
    fireEvent.change(screen.getByLabelText('Target URL'), { target: { value: 'https://ci.example.org/hook' } })
    fireEvent.change(screen.getByLabelText('Content type'), { target: { value: 'form' } })
    fireEvent.change(screen.getByLabelText('Secret'), { target: { value: 'k' } })
    fireEvent.click(screen.getByLabelText('Issues'))
    const form = screen.getByRole('heading', { name: 'New webhook' }).closest('section') as HTMLElement
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/hooks`)).toHaveLength(1))
    expect(created).toEqual({
      type: 'gitea',
      config: { url: 'https://ci.example.org/hook', content_type: 'form', secret: 'k' },
      events: ['push', 'issues'],
      branch_filter: '',
      active: true,
    })
  })

  it('edits a hook keeping its secret, and shows a refusal naming the problem', async () => {
    const sent: unknown[] = []
    stubApi({
      [`GET ${REPO}`]: admin,
      [`GET ${REPO}/hooks`]: [HOOK],
      [`PATCH ${REPO}/hooks/3`]: (body: unknown) => {
        sent.push(body)
        return new Response(JSON.stringify({ message: 'url must be an absolute http or https URL without credentials', code: 'invalid_field' }), { status: 422 })
      },
    })
    signIn()
    renderScreen(<WebhooksScreen />, '/ada/engine/settings/hooks')
    expect(await screen.findByText('https://ci.example.org/hook')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('url must be an absolute http or https URL without credentials')).toBeTruthy()
    expect(sent[0]).toMatchObject({ config: { url: 'https://ci.example.org/hook', content_type: 'json' } })
    expect((sent[0] as { config: Record<string, string> }).config).not.toHaveProperty('secret')
  })

  it('queues a test delivery, and shows the log with the request and the answer, and redelivers', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: admin,
      [`GET ${REPO}/hooks`]: [HOOK],
      [`POST ${REPO}/hooks/3/tests`]: noContent(),
      [`GET ${REPO}/hooks/3/deliveries`]: [DELIVERY],
      [`POST ${REPO}/hooks/3/deliveries/9/redeliver`]: { ...DELIVERY, id: 10, state: 'pending' },
    })
    signIn()
    renderScreen(<WebhooksScreen />, '/ada/engine/settings/hooks')
    fireEvent.click(await screen.findByRole('button', { name: 'Test delivery' }))
    expect(await screen.findByText('A test push was queued; its result appears in the deliveries.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Deliveries' }))
    expect(await screen.findByText('Failed')).toBeTruthy()
    expect(screen.getByText('the receiver answered 500 Internal Server Error')).toBeTruthy()
    expect(screen.getByText('Status 500')).toBeTruthy()
    expect(screen.getByText('boom')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Redeliver' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/hooks/3/deliveries/9/redeliver`)).toHaveLength(1))
  })
})
