import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { stubApi, text } from '@/test/forge'
import { json, preloadNamespaces, renderScreen, signIn } from '@/test/render'
import type { Post, Topic, TopicSummary } from './api'
import ForumScreen from './ForumScreen'
import ForumTopicScreen from './ForumTopicScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('forum', 'issues', 'wallet', 'moderation')

let go: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => {
  go.mockRestore()
})

const ada = schemaFixture('ForgeUser', { id: 1, login: 'ada', full_name: '', avatar_url: '' })
const bob = schemaFixture('ForgeUser', { id: 2, login: 'bob', full_name: '', avatar_url: '' })

function summary(over: Partial<TopicSummary> = {}): TopicSummary {
  return {
    id: 1,
    title: 'How do I push over SSH?',
    html_url: '',
    category: 'help',
    author: ada,
    pinned: false,
    locked: false,
    answered: false,
    answer_post_id: 0,
    replies: 0,
    revisions: 0,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    last_post_at: '2026-01-01T00:00:00Z',
    ...over,
  }
}

function topic(over: Partial<Topic> = {}): Topic {
  return {
    ...summary(),
    body: 'It fails.',
    body_html: '<p>It fails.</p>',
    can_edit: false,
    can_answer: false,
    can_moderate: false,
    can_reply: true,
    ...over,
  }
}

function post(over: Partial<Post> = {}): Post {
  return {
    id: 7,
    topic_id: 1,
    author: bob,
    body: 'Rebase first.',
    body_html: '<p>Rebase first.</p>',
    quote_id: 0,
    revisions: 0,
    is_answer: false,
    can_edit: false,
    hidden: false,
    created_at: '2026-01-02T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
    ...over,
  }
}

const categories = [
  { name: 'general', topics: 1 },
  { name: 'help', topics: 2 },
  { name: 'showcase', topics: 0 },
  { name: 'development', topics: 0 },
  { name: 'announcements', topics: 0 },
]

const paged = (items: unknown[], total = items.length) =>
  new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) } })

describe('ForumScreen', () => {
  it('lists topics with their markers, counts categories and asks a visitor to sign in', async () => {
    stubApi({
      'GET /api/v1/forum/categories': categories,
      'GET /api/v1/forum/topics': () => paged([summary({ pinned: true, answered: true, replies: 3 }), summary({ id: 2, title: 'Hello', category: 'general', locked: true })]),
    })
    renderScreen(<ForumScreen />, '/forum')
    const link = await screen.findByRole('link', { name: 'How do I push over SSH?' }, { timeout: 5000 })
    expect(link.getAttribute('href')).toBe('/forum/topic/1')
    const rows = screen.getAllByRole('listitem')
    expect(within(rows[0]).getByText('Pinned')).toBeTruthy()
    expect(within(rows[0]).getByText('Answered')).toBeTruthy()
    expect(within(rows[0]).getByText(/Replies: 3/)).toBeTruthy()
    expect(within(rows[1]).getByText('Locked')).toBeTruthy()
    expect(await screen.findByRole('tab', { name: 'Help (2)' })).toBeTruthy()
    expect(screen.getByRole('tab', { name: 'All (3)' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'New topic' }))
    const composer = screen.getByRole('dialog', { name: 'New topic' })
    expect(within(composer).getByText('Sign in with your wallet to start a topic.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Create topic' })).toBeNull()
  })

  it('puts New topic at the top, beside the title, and opens the composer over the list; Escape closes it', async () => {
    stubApi({ 'GET /api/v1/forum/categories': categories, 'GET /api/v1/forum/topics': () => paged([]) })
    signIn()
    renderScreen(<ForumScreen />, '/forum')
    expect(await screen.findByText('No topics yet')).toBeTruthy()
    const open = screen.getByRole('button', { name: 'New topic' })
    expect(open.closest('.page-header')?.querySelector('h1')?.textContent).toBe('Forum')
    expect(screen.queryByRole('form', { name: 'New topic' })).toBeNull()
    fireEvent.click(open)
    const composer = screen.getByRole('dialog', { name: 'New topic' })
    expect(document.activeElement).toBe(within(composer).getByLabelText('Category'))
    fireEvent.keyDown(composer, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('filters by category and searches titles, with an empty state for no match', async () => {
    const api = stubApi({
      'GET /api/v1/forum/categories': categories,
      'GET /api/v1/forum/topics': (_: unknown, url: URL) => (url.searchParams.get('q') ? paged([]) : paged([summary()])),
    })
    renderScreen(<ForumScreen />, '/forum')
    fireEvent.click(await screen.findByRole('tab', { name: 'Showcase (0)' }))
    await waitFor(() => expect(api.calls.some((c) => c.url.includes('category=showcase'))).toBe(true))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search topics' }), { target: { value: 'zebra' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('No topics match “zebra”')).toBeTruthy()
    expect(api.calls.some((c) => c.url.includes('q=zebra') && c.url.includes('category=showcase'))).toBe(true)
  })

  it('creates a topic in the chosen category with a Markdown preview, then opens it', async () => {
    const api = stubApi({
      'GET /api/v1/forum/categories': categories,
      'GET /api/v1/forum/topics': () => paged([]),
      'POST /api/v1/markdown': text('<p><strong>bold</strong></p>', 200, 'text/html'),
      'POST /api/v1/forum/topics': topic({ id: 9 }),
    })
    signIn()
    renderScreen(<ForumScreen />, '/forum')
    expect(await screen.findByText('No topics yet')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'New topic' }))
    fireEvent.click(screen.getByRole('button', { name: 'Create topic' }))
    expect(await screen.findByText('Enter a title.')).toBeTruthy()
    expect(api.sent('POST', '/api/v1/forum/topics')).toHaveLength(0)
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'development' } })
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: ' Plugin API ' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: '**bold**' } })
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }))
    expect((await screen.findByText('bold')).tagName).toBe('STRONG')
    fireEvent.click(screen.getByRole('button', { name: 'Create topic' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/forum/topic/9'))
    expect(api.sent('POST', '/api/v1/forum/topics')[0].body).toEqual({ category: 'development', title: 'Plugin API', body: '**bold**' })
  })

  it('shows the error when the list cannot load', async () => {
    stubApi({
      'GET /api/v1/forum/categories': categories,
      'GET /api/v1/forum/topics': () => json({ message: 'down', code: 'x' }, 500),
    })
    renderScreen(<ForumScreen />, '/forum')
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy()
  })
})

describe('ForumTopicScreen', () => {
  it('renders a real not-found page for an unknown topic', async () => {
    stubApi({})
    renderScreen(<ForumTopicScreen />, '/forum/topic/42')
    expect(await screen.findByRole('heading', { level: 1, name: 'Topic not found' })).toBeTruthy()
    expect(screen.getByText('There is no topic “42”.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to the forum' }).getAttribute('href')).toBe('/forum')
  })

  it('shows the topic and its replies, quotes a reply into the reply box and posts it', async () => {
    const api = stubApi({
      'GET /api/v1/forum/topics/1': topic({ replies: 1 }),
      'GET /api/v1/forum/topics/1/posts': () => paged([post()]),
      'POST /api/v1/forum/topics/1/posts': post({ id: 8, quote_id: 7 }),
    })
    signIn()
    renderScreen(<ForumTopicScreen />, '/forum/topic/1')
    expect(await screen.findByRole('heading', { level: 1, name: 'How do I push over SSH?' })).toBeTruthy()
    expect(await screen.findByText('Rebase first.')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Moderation' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Mark as answer' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Quote' }))
    const box = screen.getByRole('textbox', { name: 'Your reply' }) as HTMLTextAreaElement
    expect(box.value).toBe('@bob:\n> Rebase first.\n\n')
    fireEvent.change(box, { target: { value: box.value + 'Thanks!' } })
    fireEvent.click(screen.getByRole('button', { name: 'Post reply' }))
    await waitFor(() => expect(api.sent('POST', '/api/v1/forum/topics/1/posts')).toHaveLength(1))
    expect(api.sent('POST', '/api/v1/forum/topics/1/posts')[0].body).toEqual({ body: '@bob:\n> Rebase first.\n\nThanks!', quote: 7 })
  })

  it('tells everyone a locked topic takes no replies', async () => {
    stubApi({
      'GET /api/v1/forum/topics/1': topic({ locked: true, can_reply: false }),
      'GET /api/v1/forum/topics/1/posts': () => paged([]),
    })
    signIn()
    renderScreen(<ForumTopicScreen />, '/forum/topic/1')
    expect(await screen.findByText('This topic is locked: it takes no new replies.')).toBeTruthy()
    expect(screen.getAllByText('Locked').length).toBeGreaterThan(0)
    expect(screen.queryByRole('textbox', { name: 'Your reply' })).toBeNull()
    expect(await screen.findByText('No replies yet. Be the first to answer.')).toBeTruthy()
  })

  it('shows a reply the moderators hid as hidden, and offers Report on the others', async () => {
    stubApi({
      'GET /api/v1/forum/topics/1': topic({ replies: 2 }),
      'GET /api/v1/forum/topics/1/posts': () =>
        paged([post({ id: 7, hidden: true, hidden_reason: 'advertising', body: "[hidden by this node's moderators]", body_html: '' }), post({ id: 8, body: 'Fine', body_html: '<p>Fine</p>' })]),
    })
    signIn()
    renderScreen(<ForumTopicScreen />, '/forum/topic/1')
    expect(await screen.findByText('Fine')).toBeTruthy()
    const [hidden, shown] = screen.getAllByRole('article', { name: 'Reply by bob' })
    expect(within(hidden).getByRole('note').textContent).toMatch(/advertising/)
    expect(within(hidden).queryByRole('button', { name: 'Quote' })).toBeNull()
    expect(within(shown).getByRole('button', { name: 'Quote' })).toBeTruthy()
    expect(within(shown).getByRole('button', { name: /Report/ })).toBeTruthy()
  })

  it('asks a visitor to sign in to reply', async () => {
    stubApi({
      'GET /api/v1/forum/topics/1': topic({ can_reply: false }),
      'GET /api/v1/forum/topics/1/posts': () => paged([]),
    })
    renderScreen(<ForumTopicScreen />, '/forum/topic/1')
    expect(await screen.findByText('Sign in with your wallet to reply.')).toBeTruthy()
  })

  it('gives the author edit with history and the accepted answer', async () => {
    const api = stubApi({
      'GET /api/v1/forum/topics/1': topic({ can_edit: true, can_answer: true, revisions: 1 }),
      'GET /api/v1/forum/topics/1/posts': () => paged([post()]),
      'GET /api/v1/forum/topics/1/revisions': () => paged([{ n: 1, title: 'Old title', body: 'Old body', editor: ada, height: 5, created_at: '2026-01-01T00:00:00Z' }]),
      'PATCH /api/v1/forum/topics/1': topic({ title: 'New title' }),
      'PUT /api/v1/forum/topics/1/answer': topic({ answered: true, answer_post_id: 7 }),
    })
    signIn()
    renderScreen(<ForumTopicScreen />, '/forum/topic/1')
    fireEvent.click(await screen.findByRole('button', { name: 'History (1)' }))
    expect(await screen.findByText('Old body')).toBeTruthy()
    expect(screen.getByText('Old title')).toBeTruthy()
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as answer' }))
    await waitFor(() => expect(api.sent('PUT', '/api/v1/forum/topics/1/answer')[0]?.body).toEqual({ post: 7 }))
    fireEvent.click(screen.getByRole('button', { name: 'Edit topic' }))
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'New title' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/forum/topics/1')[0]?.body).toEqual({ title: 'New title', body: 'It fails.' }))
  })

  it('shows moderators pin, lock and move', async () => {
    const api = stubApi({
      'GET /api/v1/forum/topics/1': topic({ can_moderate: true, can_edit: true, can_answer: true }),
      'GET /api/v1/forum/topics/1/posts': () => paged([]),
      'PUT /api/v1/forum/topics/1/pin': topic({ pinned: true }),
      'PUT /api/v1/forum/topics/1/lock': topic({ locked: true }),
      'POST /api/v1/forum/topics/1/move': topic({ category: 'general' }),
    })
    signIn()
    renderScreen(<ForumTopicScreen />, '/forum/topic/1')
    const panel = await screen.findByRole('region', { name: 'Moderation' })
    fireEvent.click(within(panel).getByRole('button', { name: 'Pin' }))
    await waitFor(() => expect(api.sent('PUT', '/api/v1/forum/topics/1/pin')).toHaveLength(1))
    fireEvent.click(within(panel).getByRole('button', { name: 'Lock' }))
    await waitFor(() => expect(api.sent('PUT', '/api/v1/forum/topics/1/lock')).toHaveLength(1))
    expect((within(panel).getByRole('button', { name: 'Move' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(within(panel).getByLabelText('Move to'), { target: { value: 'general' } })
    fireEvent.click(within(panel).getByRole('button', { name: 'Move' }))
    await waitFor(() => expect(api.sent('POST', '/api/v1/forum/topics/1/move')[0]?.body).toEqual({ category: 'general' }))
  })
})
