import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import { EmailClaims } from './EmailClaims'
import { UserRepositories } from './UserRepositories'

preloadNamespaces('people')

const repo = (name: string, fork: boolean) => ({
  id: name.length,
  owner: { id: 1, login: 'grace' },
  name,
  full_name: `grace/${name}`,
  description: '',
  private: false,
  fork,
  default_branch: 'main',
  stars_count: 1,
  forks_count: 0,
  updated_at: '2026-11-01T10:00:00Z',
})

describe('UserRepositories', () => {
  it('lists a user’s repositories, marks forks, and filters sources and forks', async () => {
    const asked: string[] = []
    stubFetch(async (input) => {
      const url = new URL(String(input), 'http://node')
      asked.push(url.searchParams.get('mode') ?? '')
      const mode = url.searchParams.get('mode')
      const all = [repo('compiler', false), repo('forked-lib', true)]
      const items = mode === 'fork' ? all.filter((r) => r.fork) : mode === 'source' ? all.filter((r) => !r.fork) : all
      return url.pathname === '/api/v1/repos/search' && url.searchParams.get('owner') === 'grace' ? json({ ok: true, data: items }) : json({}, 404)
    })
    renderScreen(<UserRepositories login="grace" />)
    expect(await screen.findByRole('link', { name: 'forked-lib' })).toBeTruthy()
    expect(screen.getAllByText('fork')).toHaveLength(1)
    fireEvent.click(screen.getByRole('tab', { name: 'Forks' }))
    await waitFor(() => expect(screen.queryByRole('link', { name: 'compiler' })).toBeNull())
    fireEvent.click(screen.getByRole('tab', { name: 'Sources' }))
    await waitFor(() => expect(screen.queryByRole('link', { name: 'forked-lib' })).toBeNull())
    expect(asked).toEqual(['', 'fork', 'source'])
  })
})

describe('EmailClaims', () => {
  it('shows the wallet email and the claims, claims one and lets one go', async () => {
    const writes: { method: string; body: unknown }[] = []
    stubFetch(async (input, init) => {
      const method = init?.method ?? 'GET'
      if (String(input) !== '/api/v1/user/emails') return json({}, 404)
      if (method === 'GET')
        return json([
          { email: '0xabc@users.dforge', primary: true, verified: true },
          { email: 'grace@example.org', primary: false, verified: false },
        ])
      writes.push({ method, body: JSON.parse(String(init?.body)) })
      return method === 'POST' ? json([{ email: 'g@navy.example' }], 201) : new Response(null, { status: 204 })
    })
    renderScreen(<EmailClaims />)
    expect(await screen.findByText('grace@example.org')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Let go of 0xabc@users.dforge' })).toBeNull()
    fireEvent.change(screen.getByLabelText('Email to claim'), { target: { value: 'g@navy.example' } })
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }))
    fireEvent.click(screen.getByRole('button', { name: 'Let go of grace@example.org' }))
    await waitFor(() =>
      expect(writes).toEqual([
        { method: 'POST', body: { emails: ['g@navy.example'] } },
        { method: 'DELETE', body: { emails: ['grace@example.org'] } },
      ]),
    )
  })
})
