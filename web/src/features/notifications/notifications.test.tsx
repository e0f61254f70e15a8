import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import NotificationsScreen from './NotificationsScreen'
import type { Thread } from './api'
import { CHAIN_PARAMS } from '@/test/wallet'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('notifications', 'users')

const thread: Thread = schemaFixture('NotificationThread', {
  id: 7,
  repository: schemaFixture('Repo', { full_name: 'alice/app', html_url: 'http://node/alice/app' }),
  subject: schemaFixture('NotificationSubject', { title: 'Crash on start', html_url: 'http://node/alice/app/issues/1', type: 'Issue', state: 'open' }),
  unread: true,
  pinned: false,
  updated_at: '2026-01-02T03:04:05Z',
  reason: 'mention',
  actor: '0x0000000000000000000000000000000000000001',
})

function page(items: Thread[]) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })
}

describe('NotificationsScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderScreen(<NotificationsScreen />, '/notifications')
    expect(await screen.findByText('Sign in with your wallet to see your notifications.')).toBeTruthy()
    expect(screen.queryByRole('tablist')).toBeNull()
  })

  it('shows a repository offered to the user, linking the repository', async () => {
    const offer: Thread = {
      ...thread,
      subject: { ...thread.subject, title: 'alice/app', html_url: 'http://node/alice/app', type: 'Repository', state: '' },
      reason: 'repo_transfer',
    }
    stubFetch(async () => page([offer]))
    signIn(WALLET)
    renderScreen(<NotificationsScreen />, '/notifications')
    const link = await screen.findByRole('link', { name: 'alice/app is offered to you: accept or reject the transfer' })
    expect(link.getAttribute('href')).toBe('http://node/alice/app')
    expect(screen.getByText('A repository offered to you')).toBeTruthy()
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
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as read: Crash on start' }))
    await waitFor(() => expect(calls).toContain('PATCH /api/v1/notifications/threads/7'))
    expect(await screen.findByText('No unread notifications')).toBeTruthy()
  })

  it('renders rewards earned and withheld, and proposals, in words', async () => {
    const chainThread = (id: number, over: Partial<Thread>): Thread => ({ ...thread, id, repository: null, ...over })
    const threads: Thread[] = [
      chainThread(1, {
        subject: { ...thread.subject, title: 'alice/app#2', type: 'Reward', state: '', html_url: 'http://node/rewards' },
        reason: 'reward',
        amount: 90_000_000,
        reward: { kind: 'pr', withheld: 0, reason: '' },
      }),
      chainThread(2, {
        subject: { ...thread.subject, title: 'alice/app#3', type: 'Reward', state: '', html_url: 'http://node/rewards' },
        reason: 'reward_withheld',
        amount: 0,
        reward: { kind: 'issue_closer', withheld: 0, reason: 'own_issue' },
      }),
      chainThread(3, {
        subject: { ...thread.subject, title: 'alice/app#4', type: 'Reward', state: '', html_url: 'http://node/rewards' },
        reason: 'reward_withheld',
        amount: 1_500_000,
        reward: { kind: 'pr', withheld: 500_000, reason: 'cap_account' },
      }),
      chainThread(4, {
        subject: { ...thread.subject, title: 'Adopt a logo', type: 'Proposal', state: '', html_url: 'http://node/governance/1' },
        reason: 'proposal_ending',
      }),
      chainThread(5, {
        subject: { ...thread.subject, title: 'Raise the quorum', type: 'Proposal', state: '', html_url: 'http://node/governance/2' },
        reason: 'proposal_opened',
      }),
      { ...thread, id: 6, subject: { ...thread.subject, title: 'App', type: 'Pull' }, reason: 'review_requested' },
      chainThread(7, { subject: { ...thread.subject, title: '', type: 'Transfer', state: '', html_url: 'http://node/wallet' }, reason: 'transfer', amount: 25_000_000 }),
    ]
    const calls: string[] = []
    stubFetch(async (input) => {
      const url = String(input)
      calls.push(url)
      if (url.startsWith('/api/v1/chain/params')) return new Response(JSON.stringify(CHAIN_PARAMS), { status: 200, headers: { 'Content-Type': 'application/json' } })
      return page(threads)
    })
    signIn(WALLET)
    renderScreen(<NotificationsScreen />, '/notifications')
    expect(await screen.findByText('You earned 90 DFG for your pull request alice/app#2')).toBeTruthy()
    expect(screen.getByText('No reward for your issue closed alice/app#3: you closed your own issue')).toBeTruthy()
    expect(screen.getByText('You earned 1.5 DFG for your pull request alice/app#4; 0.5 DFG withheld: you reached this epoch’s limit per account')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Voting ends soon: Adopt a logo' }).getAttribute('href')).toBe('http://node/governance/1')
    expect(screen.getByText('New proposal: Raise the quorum')).toBeTruthy()
    expect(screen.getByText('Voting ends soon: you have not voted')).toBeTruthy()
    expect(screen.getByText('Your review was requested')).toBeTruthy()
    expect(screen.getByText('Transfer received: 25 DFG')).toBeTruthy()
    expect(screen.getAllByText('A reward withheld')).toHaveLength(2)
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: 'Reward' } })
    await waitFor(() => expect(calls.some((c) => c.includes('subject-type=Reward'))).toBe(true))
  })
})
