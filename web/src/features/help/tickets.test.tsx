import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch } from '@/test/render'
import ContactScreen from './ContactScreen'
import HelpScreen from './HelpScreen'
import TicketScreen from './TicketScreen'

preloadNamespaces('help', 'tickets', 'wallet')

const ticket = { id: 3, subject: 'Push fails', message: 'It broke.', status: 'answered', name: 'Ada', email: 'ada@example.org', anonymous: false, replies: 1, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z' }
const thread = { ...ticket, thread: [{ id: 1, body: 'Try again.', staff: true, created_at: '2026-01-02T00:00:00Z' }] }

function page(items: unknown[]) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })
}

describe('support tickets', () => {
  it('shows the empty state, and asks a signed-out visitor to sign in', async () => {
    stubFetch(async (input) => (String(input).startsWith('/api/v1/user/tickets?') ? page([]) : json([])))
    const view = renderScreen(<HelpScreen />, '/help')
    expect(await screen.findByText('Sign in with your wallet to follow up on messages you sent.')).toBeTruthy()
    view.unmount()
    signIn()
    renderScreen(<HelpScreen />, '/help')
    expect(await screen.findByText(/You have no tickets yet/)).toBeTruthy()
  })

  it('lists the signed-in user’s tickets with their status on /help', async () => {
    stubFetch(async (input) => (String(input).startsWith('/api/v1/user/tickets?') ? page([ticket]) : json([])))
    signIn()
    renderScreen(<HelpScreen />, '/help')
    const link = await screen.findByRole('link', { name: 'Push fails' }, { timeout: 10_000 }) // the first render loads the screen's modules
    expect(link.getAttribute('href')).toBe('/help/tickets/3')
    expect(screen.getByText('Answered')).toBeTruthy()
  })

  it('shows a ticket’s thread, sends a reply and closes it', async () => {
    const calls: string[] = []
    let current = thread
    stubFetch(async (input, init) => {
      const url = String(input)
      const method = init?.method ?? 'GET'
      calls.push(`${method} ${url} ${init?.body ?? ''}`)
      if (url === '/api/v1/user/tickets/3/replies') {
        current = { ...current, status: 'open', thread: [...current.thread, { id: 2, body: 'Still broken.', staff: false, created_at: '2026-01-03T00:00:00Z' }] }
        return json(current, 201)
      }
      if (url === '/api/v1/user/tickets/3' && method === 'PATCH') {
        current = { ...current, status: 'closed' }
        return json(current)
      }
      if (url === '/api/v1/user/tickets/3') return json(current)
      return json({ message: 'not found' }, 404)
    })
    signIn()
    renderScreen(<TicketScreen />, '/help/tickets/3')
    expect(await screen.findByText('Try again.')).toBeTruthy()
    expect(screen.getByText('Support team')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }))
    expect(await screen.findByText('Write a reply first.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'Still broken.' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }))
    expect(await screen.findByText('Still broken.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Close ticket' }))
    expect(await screen.findByRole('button', { name: 'Reopen ticket' })).toBeTruthy()
    await waitFor(() => expect(calls).toContain('PATCH /api/v1/user/tickets/3 {"status":"closed"}'))
  })

  it('says not found for someone else’s ticket', async () => {
    stubFetch()
    signIn()
    renderScreen(<TicketScreen />, '/help/tickets/99')
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(screen.queryByLabelText('Your reply')).toBeNull()
  })

  it('prefills a signed-in user’s name on the contact form and leaves it empty when signed out', () => {
    stubFetch()
    const view = renderScreen(<ContactScreen />, '/help/contact')
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('')
    view.unmount()
    signIn()
    renderScreen(<ContactScreen />, '/help/contact')
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('ada')
  })
})
