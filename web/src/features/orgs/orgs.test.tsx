import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch } from '@/test/render'
import OrgScreen from './OrgScreen'
import OrgsScreen from './OrgsScreen'

preloadNamespaces('orgs', 'webhooks', 'wallet')

let go: MockInstance<(url: string) => void>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => go.mockRestore())

// The first render loads the screen's modules; a loaded machine needs longer than findBy's default second.
const SLOW = { timeout: 5000 }

const ACME = { id: 1, username: 'acme', full_name: 'Acme Inc.', description: 'We make things', website: 'https://acme.example', location: 'Earth', visibility: 'public', repo_count: 1 }
const OWNERS = { id: 1, name: 'Owners', description: '', organization: ACME, permission: 'owner', units: [], includes_all_repositories: true, can_create_org_repo: true }
const DEVS = { id: 2, name: 'devs', description: 'Developers', organization: ACME, permission: 'write', units: ['repo.code'], includes_all_repositories: false, can_create_org_repo: false }
const APP = { id: 7, owner: { id: 1, login: 'acme' }, name: 'app', full_name: 'acme/app', description: 'The app', private: false, default_branch: 'main', stars_count: 0, forks_count: 0, updated_at: '2026-11-01T10:00:00Z' }

describe('OrgsScreen', () => {
  it('lists every organization and asks a visitor to sign in to create one', async () => {
    stubFetch({ '/api/v1/orgs?page=1&limit=20': [ACME] })
    renderScreen(<OrgsScreen />, '/groups')
    expect(await screen.findByRole('link', { name: 'Acme Inc.' }, SLOW)).toHaveProperty('pathname', '/org/acme')
    expect(screen.getByText(/Sign in with your wallet to see your organizations/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Create organization' })).toBeNull()
  })

  it('checks the name, creates the organization and opens its page', async () => {
    const posted: unknown[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      if (url === '/api/v1/orgs' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)))
        return json(ACME, 201)
      }
      if (url.startsWith('/api/v1/user/orgs')) return json([])
      if (url.startsWith('/api/v1/orgs')) return json([])
      return json({ message: 'not found', code: 'not_found' }, 404)
    })
    signIn()
    renderScreen(<OrgsScreen />, '/groups')
    expect(await screen.findByText('You are not in any organization yet.', {}, SLOW)).toBeTruthy()
    const name = screen.getByLabelText('Name')
    fireEvent.change(name, { target: { value: 'bad name' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create organization' }))
    expect(await screen.findByText("Use letters, digits and single '-', '_' or '.' between them.")).toBeTruthy()
    expect(posted).toEqual([])
    fireEvent.change(name, { target: { value: 'acme' } })
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Acme Inc.' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create organization' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/org/acme'))
    expect(posted).toEqual([{ username: 'acme', full_name: 'Acme Inc.', description: '' }])
  })

  it('shows the server refusal when the name is taken', async () => {
    stubFetch(async (input, init) => {
      const url = String(input)
      if (url === '/api/v1/orgs' && init?.method === 'POST') return json({ message: 'the name "acme" belongs to another user or organization', code: 'name_taken' }, 409)
      return json([])
    })
    signIn()
    renderScreen(<OrgsScreen />, '/groups')
    fireEvent.change(await screen.findByLabelText('Name', {}, SLOW), { target: { value: 'acme' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create organization' }))
    expect((await screen.findByRole('alert')).textContent).toContain('belongs to another user or organization')
    expect(go).not.toHaveBeenCalled()
  })
})

describe('OrgScreen', () => {
  it('says an unknown organization is not found', async () => {
    stubFetch()
    renderScreen(<OrgScreen />, '/org/nobody')
    expect(await screen.findByRole('alert', {}, SLOW)).toBeTruthy()
  })

  it('shows the repositories, members and teams, with team management for an owner', async () => {
    const puts: string[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      if (init?.method === 'PUT') {
        puts.push(url)
        return new Response(null, { status: 204 })
      }
      const routes: Record<string, unknown> = {
        '/api/v1/orgs/acme': ACME,
        '/api/v1/orgs/acme/repos?page=1&limit=20': [APP],
        '/api/v1/orgs/acme/members?page=1&limit=20': [{ id: 3, login: 'ada' }],
        '/api/v1/orgs/acme/teams?page=1&limit=20': [DEVS, OWNERS],
        '/api/v1/user/teams?page=1&limit=50': [OWNERS],
        '/api/v1/teams/2/members?page=1&limit=50': [],
        '/api/v1/teams/2/repos?page=1&limit=50': [APP],
      }
      return Object.hasOwn(routes, url) ? json(routes[url]) : json({ message: 'not found', code: 'not_found' }, 404)
    })
    signIn()
    renderScreen(<OrgScreen />, '/org/acme')
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Inc.' }, SLOW)).toBeTruthy()
    expect((await screen.findByRole('link', { name: 'app' })).getAttribute('href')).toBe('/acme/app')
    expect(await screen.findByText('You own this organization')).toBeTruthy()

    fireEvent.click(screen.getByRole('tab', { name: 'Members' }))
    expect(await screen.findByRole('button', { name: 'Remove ada from the organization' })).toBeTruthy()

    fireEvent.click(screen.getByRole('tab', { name: 'Teams' }))
    expect(await screen.findByText('devs')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Delete the team devs' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete the team Owners' })).toBeNull()
    expect(screen.getByRole('heading', { name: 'New team' })).toBeTruthy()

    const row = screen.getByText('devs').closest('li') as HTMLElement
    fireEvent.click(within(row).getByRole('button', { name: 'Show members and repositories' }))
    expect(await within(row).findByText('No members yet.')).toBeTruthy()
    fireEvent.change(within(row).getByLabelText('Username'), { target: { value: 'grace' } })
    fireEvent.click(within(row).getByRole('button', { name: 'Add member' }))
    await waitFor(() => expect(puts).toEqual(['/api/v1/teams/2/members/grace']))
  })

  it('lets an owner edit the profile and refuses to delete until the name is typed', async () => {
    const sent: { method: string; url: string; body?: unknown }[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      if (init?.method === 'PATCH' || init?.method === 'DELETE') {
        sent.push({ method: init.method, url, body: init.body ? JSON.parse(String(init.body)) : undefined })
        return init.method === 'PATCH' ? json({ ...ACME, website: 'https://acme.test' }) : new Response(null, { status: 204 })
      }
      const routes: Record<string, unknown> = {
        '/api/v1/orgs/acme': ACME,
        '/api/v1/orgs/acme/repos?page=1&limit=20': [],
        '/api/v1/user/teams?page=1&limit=50': [OWNERS],
      }
      return Object.hasOwn(routes, url) ? json(routes[url]) : json({ message: 'not found', code: 'not_found' }, 404)
    })
    signIn()
    renderScreen(<OrgScreen />, '/org/acme')
    fireEvent.click(await screen.findByRole('tab', { name: 'Settings' }, SLOW))
    fireEvent.change(screen.getByLabelText('Website'), { target: { value: 'https://acme.test' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Saved.')).toBeTruthy()
    expect(sent).toEqual([{ method: 'PATCH', url: '/api/v1/orgs/acme', body: { full_name: 'Acme Inc.', description: 'We make things', website: 'https://acme.test', location: 'Earth' } }])
    const del = screen.getByRole('button', { name: 'Delete' })
    expect(del).toHaveProperty('disabled', true)
    fireEvent.change(screen.getByLabelText('Type acme to confirm'), { target: { value: 'acme' } })
    fireEvent.click(del)
    await waitFor(() => expect(go).toHaveBeenCalledWith('/groups'))
    expect(sent.at(-1)).toEqual({ method: 'DELETE', url: '/api/v1/orgs/acme', body: undefined })
  })

  it("lists the organization's webhooks in its settings and adds one, with no test delivery", async () => {
    const HOOK = {
      id: 4,
      type: 'gitea',
      branch_filter: '',
      config: { url: 'https://ci.example.org/org', content_type: 'json', http_method: 'POST' },
      events: ['push'],
      active: true,
      created_at: '2026-01-02T00:00:00Z',
      updated_at: '2026-01-02T00:00:00Z',
    }
    const posted: { url: string; body: unknown }[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      if (init?.method === 'POST') {
        posted.push({ url, body: JSON.parse(String(init.body)) })
        return json({ ...HOOK, id: 5, config: { ...HOOK.config, url: 'https://new.example.org/hook' } }, 201)
      }
      const routes: Record<string, unknown> = {
        '/api/v1/orgs/acme': ACME,
        '/api/v1/orgs/acme/repos?page=1&limit=20': [],
        '/api/v1/user/teams?page=1&limit=50': [OWNERS],
        '/api/v1/orgs/acme/hooks?limit=50': [HOOK],
      }
      return Object.hasOwn(routes, url) ? json(routes[url]) : json({ message: 'not found', code: 'not_found' }, 404)
    })
    signIn()
    renderScreen(<OrgScreen />, '/org/acme')
    fireEvent.click(await screen.findByRole('tab', { name: 'Settings' }, SLOW))
    expect(await screen.findByText('https://ci.example.org/org', {}, SLOW)).toBeTruthy()
    expect(screen.getByText(/fire for events on every repository it owns/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Test delivery' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }))
    fireEvent.change(screen.getByLabelText('Target URL'), { target: { value: 'https://new.example.org/hook' } })
    const form = screen.getByRole('heading', { name: 'New webhook' }).closest('section') as HTMLElement
    fireEvent.click(within(form).getByRole('button', { name: 'Add webhook' }))
    await waitFor(() => expect(posted).toHaveLength(1))
    expect(posted[0]).toEqual({
      url: '/api/v1/orgs/acme/hooks',
      body: { type: 'gitea', config: { url: 'https://new.example.org/hook', content_type: 'json', secret: '' }, events: ['push'], branch_filter: '', active: true },
    })
  })

  it('shows no management to someone outside the organization', async () => {
    stubFetch({
      '/api/v1/orgs/acme': ACME,
      '/api/v1/orgs/acme/repos?page=1&limit=20': [],
      '/api/v1/orgs/acme/teams?page=1&limit=20': [DEVS],
    })
    renderScreen(<OrgScreen />, '/org/acme')
    expect(await screen.findByText('This organization has no repositories yet.', {}, SLOW)).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Teams' }))
    expect(await screen.findByText('devs')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete the team devs' })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'New team' })).toBeNull()
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull()
  })
})
