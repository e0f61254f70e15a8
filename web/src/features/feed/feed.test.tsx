import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import FeedScreen from './FeedScreen'
import { FeedLink } from './index'
import type { FeedItem } from './api'

preloadNamespaces('feed')

const actor = { address: '0x0000000000000000000000000000000000000001', username: 'alice' }
const repo = { id: 1, owner: 'alice', name: 'lamp', fullName: 'alice/lamp' }

const issue: FeedItem = { id: 11, type: 'issue.open', actor, repo, number: 3, title: 'Dim light', height: 9, time: '2026-01-02T03:04:05Z' }
const comment: FeedItem = {
  id: 12,
  type: 'comment',
  actor: { address: '0x0000000000000000000000000000000000000002', username: 'dave' },
  repo: { ...repo, private: true },
  number: 3,
  title: 'Dim light',
  commentId: 44,
  content: 'Seen it too.',
  height: 10,
  time: '2026-01-02T03:05:05Z',
}

function page(items: FeedItem[], total: number) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) } })
}

describe('FeedScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderScreen(<FeedScreen />, '/feed')
    expect(await screen.findByText('Sign in with your wallet to see your feed.')).toBeTruthy()
    expect(screen.queryByRole('list')).toBeNull()
  })

  it('points an empty feed to Explore and to people to follow', async () => {
    stubFetch(async () => page([], 0))
    signIn(WALLET)
    renderScreen(<FeedScreen />, '/feed')
    expect(await screen.findByText(/Your feed is empty/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Explore repositories' }).getAttribute('href')).toBe('/explore')
    expect(screen.getByRole('link', { name: 'Find people to follow' }).getAttribute('href')).toBe('/search?type=users')
  })

  it('lists actions as sentences with links, and pages', async () => {
    const calls: string[] = []
    stubFetch(async (input) => {
      const url = String(input)
      calls.push(url)
      return url.includes('page=2') ? page([issue], 21) : page([comment], 21)
    })
    signIn(WALLET)
    renderScreen(<FeedScreen />, '/feed')
    expect(await screen.findByText('Seen it too.')).toBeTruthy()
    expect(calls[0]).toBe('/api/v1/user/feed?page=1&limit=20')
    expect(screen.getByRole('link', { name: 'dave' }).getAttribute('href')).toBe('/user/dave')
    expect(screen.getByRole('link', { name: '#3' }).getAttribute('href')).toBe('/alice/lamp/issues/3#issuecomment-44')
    expect(screen.getByText('Private')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(calls).toContain('/api/v1/user/feed?page=2&limit=20'))
    expect(await screen.findByRole('link', { name: 'alice' })).toBeTruthy()
    expect(screen.getByRole('link', { name: '#3' }).getAttribute('href')).toBe('/alice/lamp/issues/3')
    expect(screen.getByRole('link', { name: 'alice/lamp' }).getAttribute('href')).toBe('/alice/lamp')
  })

  it('says so when the feed cannot be read', async () => {
    stubFetch(async () => new Response(JSON.stringify({ message: 'boom' }), { status: 500 }))
    signIn(WALLET)
    renderScreen(<FeedScreen />, '/feed')
    expect(await screen.findByRole('alert')).toBeTruthy()
  })

  it('links Home to the feed for a signed-in user only', async () => {
    const { unmount } = renderScreen(<FeedLink />, '/')
    expect(screen.queryByRole('link')).toBeNull()
    unmount()
    signIn(WALLET)
    renderScreen(<FeedLink />, '/')
    expect((await screen.findByRole('link', { name: 'Your feed' })).getAttribute('href')).toBe('/feed')
  })
})
