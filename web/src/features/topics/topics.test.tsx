import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Repository } from '@/lib/forge/api'
import { json, preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import { invalidTopics, parseTopics } from './api'
import { RepoTopics } from './RepoTopics'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('topics')

const repo = (admin: boolean, topics: string[]): Repository =>
  schemaFixture('Repo', {
    id: 1,
    owner: schemaFixture('ForgeUser', { id: 1, login: 'ada' }),
    name: 'app',
    full_name: 'ada/app',
    default_branch: 'main',
    updated_at: '2026-11-01T10:00:00Z',
    topics,
    permissions: schemaFixture('Perm', { admin, push: admin, pull: true }),
  })

describe('parseTopics', () => {
  it('reads topics as Gitea does: lower case, split on spaces and commas, no repeats', () => {
    expect(parseTopics(' Go, p2p  go,,forge ')).toEqual(['go', 'p2p', 'forge'])
    expect(invalidTopics(['ok', '-dash', 'a'.repeat(36), 'v1.2'])).toEqual(['-dash', 'a'.repeat(36)])
  })
})

describe('RepoTopics', () => {
  it('links each topic to Explore filtered by it, and offers no editing to readers', async () => {
    stubFetch()
    renderScreen(<RepoTopics repo={repo(false, ['go', 'p2p'])} />)
    expect((await screen.findByRole('link', { name: 'p2p' })).getAttribute('href')).toBe('/explore?topic=p2p')
    expect(screen.queryByRole('button', { name: 'Edit topics' })).toBeNull()
  })

  it('lets an admin replace the topics, refusing invalid ones before sending', async () => {
    const sent: unknown[] = []
    stubFetch(async (input, init) => {
      if (String(input) === '/api/v1/repos/ada/app/topics' && init?.method === 'PUT') {
        sent.push(JSON.parse(String(init.body)))
        return new Response(null, { status: 204 })
      }
      return json({ message: 'page not found' }, 404)
    })
    renderScreen(<RepoTopics repo={repo(true, [])} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Edit topics' }))
    const input = screen.getByLabelText('Topics')
    fireEvent.change(input, { target: { value: 'Go -bad' } })
    expect(screen.getByRole('alert').textContent).toContain('-bad')
    expect((screen.getByRole('button', { name: 'Save topics' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(input, { target: { value: 'Go, p2p' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save topics' }))
    await waitFor(() => expect(sent).toEqual([{ topics: ['go', 'p2p'] }]))
  })
})
