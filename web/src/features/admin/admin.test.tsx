import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch } from '@/test/render'
import { useAuthStore } from '@/stores/auth'
import AdminScreen from './AdminScreen'

preloadNamespaces('admin', 'tickets', 'wallet')

function signInAdmin() {
  act(() => useAuthStore.getState().login({ username: 'root', isAdmin: true }, 'test-token'))
}

function page(items: unknown[], total = items.length) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) } })
}

const bob = { id: 2, login: 'bob', full_name: 'Bob', email: 'bob@example.org', created: '2026-01-01T00:00:00Z', wallet_address: '0xb0b', two_factor_enabled: false, is_admin: false }

describe('AdminScreen', () => {
  it('asks a visitor to sign in, and is the not-found page for a user who is not an admin', () => {
    const fetchMock = stubFetch()
    renderScreen(<AdminScreen />, '/admin')
    expect(screen.getByRole('status').textContent).toContain("The admin console is for this node's admins.")
    signIn()
    expect(screen.getByRole('heading', { level: 1 }).textContent).toMatch(/not found/i)
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('lists users and revokes a session after confirming', async () => {
    const calls: string[] = []
    let sessions = [{ id: 41, current: false, createdAt: '2026-01-02T00:00:00Z', lastSeenAt: '2026-01-03T00:00:00Z', userAgent: 'Firefox', ip: '10.0.0.9' }]
    stubFetch(async (input, init) => {
      const url = String(input)
      calls.push(`${init?.method ?? 'GET'} ${url}`)
      if (url.startsWith('/api/v1/admin/users?')) return page([bob])
      if (url === '/api/v1/admin/users/bob/sessions') return json(sessions)
      if (url === '/api/v1/admin/users/bob/tokens') return json([])
      if (url === '/api/v1/admin/sessions/41') {
        sessions = []
        return new Response(null, { status: 204 })
      }
      return json({ message: 'not found' }, 404)
    })
    const confirm = vi.fn(() => true)
    vi.stubGlobal('confirm', confirm)
    signInAdmin()
    renderScreen(<AdminScreen />, '/admin')
    expect(await screen.findByText('bob')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Reports and moderation' }).getAttribute('href')).toBe('/reports')
    fireEvent.click(screen.getByRole('button', { name: 'Sessions and tokens of bob' }))
    expect(await screen.findByText(/Firefox/)).toBeTruthy()
    expect(await screen.findByText('This account has no access tokens.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }))
    expect(confirm).toHaveBeenCalled()
    await waitFor(() => expect(calls).toContain('DELETE /api/v1/admin/sessions/41'))
    expect(await screen.findByText('No one is signed in with this account.')).toBeTruthy()
  })

  it('does not revoke when the confirmation is cancelled', async () => {
    const calls: string[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      calls.push(`${init?.method ?? 'GET'} ${url}`)
      if (url.startsWith('/api/v1/admin/users?')) return page([bob])
      if (url === '/api/v1/admin/users/bob/sessions') return json([])
      if (url === '/api/v1/admin/users/bob/tokens') return json([{ id: 9, name: 'ci', token_last_eight: 'abcdef12', scopes: ['write'], created_at: '2026-01-01T00:00:00Z' }])
      return json({ message: 'not found' }, 404)
    })
    vi.stubGlobal('confirm', vi.fn(() => false))
    signInAdmin()
    renderScreen(<AdminScreen />, '/admin')
    fireEvent.click(await screen.findByRole('button', { name: 'Sessions and tokens of bob' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }))
    expect(calls.some((c) => c.startsWith('DELETE'))).toBe(false)
  })

  it('answers a ticket from the tickets tab', async () => {
    const ticket = { id: 5, subject: 'Push fails', message: 'It broke.', status: 'open', name: 'Ada', email: 'ada@example.org', anonymous: false, user: { login: 'ada', full_name: '' }, replies: 0, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }
    const posted: unknown[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      if (url.startsWith('/api/v1/admin/tickets?')) return page([ticket])
      if (url === '/api/v1/admin/tickets/5/replies') {
        posted.push(JSON.parse(String(init?.body)))
        return json({ ...ticket, status: 'answered', replies: 1, thread: [{ id: 1, body: 'Try again.', staff: true, author: { login: 'root' }, created_at: '2026-01-02T00:00:00Z' }] }, 201)
      }
      if (url === '/api/v1/admin/tickets/5') return json({ ...ticket, thread: [] })
      return json({ message: 'not found' }, 404)
    })
    signInAdmin()
    renderScreen(<AdminScreen />, '/admin?tab=tickets')
    fireEvent.click(await screen.findByRole('button', { name: '#5 Push fails' }))
    expect(await screen.findByText('It broke.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'Try again.' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }))
    expect(await screen.findByText('Support team (root)')).toBeTruthy()
    expect(posted).toEqual([{ body: 'Try again.' }])
    expect(screen.getAllByText('Answered').length).toBeGreaterThan(0)
  })

  it('shows the node health and the settings', async () => {
    stubFetch({
      '/api/v1/admin/node': {
        version: '1.2.3',
        chain: {
          height: 1200,
          catching_up: false,
          peers: 2,
          making_blocks: false,
          stall: 'no block for 40s (height 1201)',
          peer_list: [
            { id: 'a1b2c3d4e5f6a7b8', moniker: 'node2', address: 'a1b2c3d4e5f6a7b8@10.0.0.2:26656', outbound: true, connected_seconds: 7300 },
            { id: 'f6e5d4c3b2a1f0e9', moniker: '', address: 'f6e5d4c3b2a1f0e9@10.0.0.3:26656', outbound: false, connected_seconds: 125 },
          ],
        },
        index: { height: 1195, lag: 5, stalled: false },
        replication: { enabled: false, repos: 0, ready: 0, replicating: 0, failed: 0, queued: 0, running: 0 },
        disk: { path: '/data', total_bytes: 10 * 2 ** 30, free_bytes: 4 * 2 ** 30, used_bytes: 6 * 2 ** 30 },
      },
      '/api/v1/admin/settings': [{ name: 'db', value: 'postgres://forge:xxxxx@db/dforge', env: 'DFORGE_DB' }],
    })
    signInAdmin()
    renderScreen(<AdminScreen />, '/admin?tab=node')
    expect(await screen.findByText('5 blocks behind')).toBeTruthy()
    expect(screen.getByText('no: no block for 40s (height 1201)')).toBeTruthy()
    const peers = screen.getByRole('table', { name: 'Peers' })
    const rows = within(peers).getAllByRole('row')
    expect(rows).toHaveLength(3)
    expect(within(rows[1]).getByText('node2')).toBeTruthy()
    expect(within(rows[1]).getByText('this node dialled it')).toBeTruthy()
    expect(within(rows[1]).getByText('2 hours')).toBeTruthy()
    expect(within(rows[2]).getByText('f6e5d4c3b2a1')).toBeTruthy()
    expect(within(rows[2]).getByText('it dialled this node')).toBeTruthy()
    expect(within(rows[2]).getByText('2 minutes')).toBeTruthy()
    expect(screen.getByText('this node replicates no repositories')).toBeTruthy()
    expect(screen.getByText('4 GiB free of 10 GiB (/data)')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }))
    expect(await screen.findByText('postgres://forge:xxxxx@db/dforge')).toBeTruthy()
    expect(screen.getByText('--db')).toBeTruthy()
  })
})
