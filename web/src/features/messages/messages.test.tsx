import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import MessagesScreen from './MessagesScreen'
import { MessagesBadge } from './MessagesBadge'
import type { Conversation, Message } from './api'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('messages', 'issues')

const alice = schemaFixture('User', { id: 1, login: 'alice' })
const ada = schemaFixture('User', { id: 2, login: 'ada' })

function message(id: number, sender: typeof alice, body: string): Message {
  return { id, conversation_id: 7, sender, body, body_html: `<p>${body}</p>`, created_at: `2026-01-02T03:0${id}:00Z` }
}

const conversation: Conversation = schemaFixture('Conversation', {
  id: 7,
  with: alice,
  last_message: message(2, alice, 'How are you?'),
  unread_count: 2,
  blocked: false,
  created_at: '2026-01-02T03:01:00Z',
  updated_at: '2026-01-02T03:02:00Z',
})

function page<T>(items: T[]) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })
}

/** A fake API for one conversation with alice; calls records each request as "METHOD path". */
function fakeApi(calls: string[], state = { conv: { ...conversation } }) {
  return stubFetch(async (input, init) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    calls.push(`${method} ${url}`)
    if (url.startsWith('/api/v1/messages/conversations?')) return page([state.conv])
    if (url === '/api/v1/messages/conversations/7') return json(state.conv)
    if (url.startsWith('/api/v1/messages/conversations/7/messages')) return page([message(2, alice, 'How are you?'), message(1, alice, 'Hello ada')])
    if (url === '/api/v1/messages/conversations/7/read') {
      state.conv = { ...state.conv, unread_count: 0 }
      return new Response(null, { status: 204 })
    }
    if (url === '/api/v1/messages/unread') return json({ unread: state.conv.unread_count, conversations: state.conv.unread_count ? 1 : 0 })
    if (url === '/api/v1/messages' && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { to: string; body: string }
      if (body.to === 'ghost') return json({ message: 'ghost has no account on this node', code: 'no_account', field: 'to' }, 422)
      return json(message(3, ada, body.body), 201)
    }
    if (url.startsWith('/api/v1/user/blocks/')) {
      state.conv = { ...state.conv, blocked: method === 'PUT' }
      return new Response(null, { status: 204 })
    }
    return json({ message: 'not found', code: 'not_found' }, 404)
  })
}

describe('MessagesScreen', () => {
  it('asks a signed-out visitor to sign in and says both people need accounts here', async () => {
    renderScreen(<MessagesScreen />, '/messages')
    expect(await screen.findByText('Sign in with your wallet to read and send messages.')).toBeTruthy()
    expect(screen.getByText(/Both of you need to have signed in on this node/)).toBeTruthy()
  })

  it('shows the empty list and explains a refusal of the new message form', async () => {
    const calls: string[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      calls.push(`${init?.method ?? 'GET'} ${url}`)
      if (url.startsWith('/api/v1/messages/conversations?')) return page([])
      if (url === '/api/v1/messages/unread') return json({ unread: 0, conversations: 0 })
      return json({ message: 'ghost has no account on this node', code: 'no_account', field: 'to' }, 422)
    })
    signIn(WALLET)
    renderScreen(<MessagesScreen />, '/messages?to=ghost')
    expect(await screen.findByText('No conversations yet. Start one with “New message”.')).toBeTruthy()
    const to = screen.getByRole('textbox', { name: 'To (username)' }) as HTMLInputElement
    expect(to.value).toBe('ghost')
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Hi **there**' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText(/This person has no account on this node yet/)).toBeTruthy()
    expect(calls).toContain('POST /api/v1/messages')
  })

  it('opens a conversation: marks it read, shows the thread oldest first, replies and blocks', async () => {
    const calls: string[] = []
    fakeApi(calls)
    signIn(WALLET)
    renderScreen(<MessagesScreen />, '/messages/7')
    expect(await screen.findByRole('heading', { name: 'Conversation with alice' })).toBeTruthy()
    const thread = await screen.findByRole('list', { name: 'Messages in this conversation' })
    const items = within(thread).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual([expect.stringContaining('Hello ada'), expect.stringContaining('How are you?')])
    await waitFor(() => expect(calls).toContain('POST /api/v1/messages/conversations/7/read'))

    const box = screen.getByRole('textbox', { name: 'Reply' }) as HTMLTextAreaElement
    fireEvent.change(box, { target: { value: 'Fine, thanks' } })
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true })
    await waitFor(() => expect(calls).toContain('POST /api/v1/messages'))
    await waitFor(() => expect(box.value).toBe(''))

    fireEvent.click(screen.getByRole('button', { name: 'Block alice' }))
    await waitFor(() => expect(calls).toContain('PUT /api/v1/user/blocks/alice'))
    expect(await screen.findByRole('button', { name: 'Unblock alice' })).toBeTruthy()
    expect(screen.getByText(/You have blocked alice/)).toBeTruthy()
    expect(screen.queryByRole('textbox', { name: 'Reply' })).toBeNull()
  })

  it('lists conversations with their unread count', async () => {
    fakeApi([])
    signIn(WALLET)
    renderScreen(<MessagesScreen />, '/messages')
    expect(await screen.findByRole('link', { name: 'alice, unread messages: 2' })).toBeTruthy()
    expect(screen.getByText('Unread messages: 2 (conversations: 1)')).toBeTruthy()
  })

  it('says a conversation that is not the user’s is not found', async () => {
    fakeApi([])
    signIn(WALLET)
    renderScreen(<MessagesScreen />, '/messages/99')
    expect(await screen.findByText('This could not be found.')).toBeTruthy()
  })

  it('shows the unread count on the header’s envelope', async () => {
    stubFetch({ '/api/v1/messages/unread': { unread: 3, conversations: 2 } })
    signIn(WALLET)
    renderScreen(<MessagesBadge />, '/')
    const link = await screen.findByRole('link', { name: 'Messages: 3 unread' })
    expect(link.getAttribute('href')).toBe('/messages')
    expect(link.textContent).toBe('3')
  })
})
