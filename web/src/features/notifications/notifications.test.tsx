import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import NotificationsScreen from './NotificationsScreen'
import type { Thread } from './api'

preloadNamespaces('notifications', 'users')

const thread: Thread = {
  id: 7,
  repository: { full_name: 'alice/app', html_url: 'http://node/alice/app' },
  subject: { title: 'Crash on start', url: '', html_url: 'http://node/alice/app/issues/1', latest_comment_html_url: '', type: 'Issue', state: 'open' },
  unread: true,
  pinned: false,
  updated_at: '2026-01-02T03:04:05Z',
  reason: 'mention',
  actor: '0x0000000000000000000000000000000000000001',
}

function page(items: Thread[]) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })
}

describe('NotificationsScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderScreen(<NotificationsScreen />, '/notifications')
    expect(await screen.findByText('Sign in with your wallet to see your notifications.')).toBeTruthy()
    expect(screen.queryByRole('tablist')).toBeNull()
  })

  it('shows the empty state when nothing is unread', async () => {
    stubFetch(async () => page([]))
    signIn(WALLET)
    renderScreen(<NotificationsScreen />, '/notifications')
    expect(await screen.findByText('No unread notifications')).toBeTruthy()
  })

  it('lists threads, filters by kind and marks one read', async () => {
    const calls: string[] = []
    let unread = true
    stubFetch(async (input, init) => {
      const url = String(input)
      calls.push(`${init?.method ?? 'GET'} ${url}`)
      if (url.startsWith('/api/v1/notifications/threads/7')) {
        unread = false
        return new Response(JSON.stringify({ ...thread, unread: false }), { status: 205 })
      }
      return page(unread ? [thread] : [])
    })
    signIn(WALLET)
    renderScreen(<NotificationsScreen />, '/notifications')
    expect(await screen.findByText('Crash on start')).toBeTruthy()
    expect(screen.getByText('You were mentioned')).toBeTruthy()
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: 'Pull' } })
    await waitFor(() => expect(calls.some((c) => c.includes('subject-type=Pull'))).toBe(true))
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: '' } })
    fireEvent.click(await screen.findByRole('button', { name: 'Mark “Crash on start” as read' }))
    await waitFor(() => expect(calls).toContain('PATCH /api/v1/notifications/threads/7'))
    expect(await screen.findByText('No unread notifications')).toBeTruthy()
  })
})
