import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch } from '@/test/render'
import type { CommunityEvent } from './api'
import { validate } from './EventForm'
import EventScreen from './EventScreen'
import EventsScreen from './EventsScreen'
import { utcToWall, wallToUTC } from './time'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('events', 'wallet')

const meetup: CommunityEvent = {
  id: 7,
  title: 'Berlin meetup',
  description: 'Talks',
  description_html: '<p>Talks</p>',
  starts_at: '2030-05-01T16:00:00Z',
  ends_at: '2030-05-01T18:00:00Z',
  timezone: 'Europe/Berlin',
  online_url: 'https://meet.example/berlin',
  place: 'c-base',
  organizer: schemaFixture('ForgeUser', { login: 'ada' }),
  cancelled: false,
  past: false,
  going: 3,
  maybe: 1,
  created_at: '2030-01-01T00:00:00Z',
  updated_at: '2030-01-01T00:00:00Z',
}
const old: CommunityEvent = { ...meetup, id: 2, title: 'Old call', starts_at: '2020-01-01T10:00:00Z', ends_at: '2020-01-01T11:00:00Z', place: '', past: true }

function page(items: unknown[]) {
  return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) } })
}

describe('event times', () => {
  it('reads a wall time in the event’s zone, across summer time too', () => {
    expect(wallToUTC('2030-05-01T18:00', 'Europe/Berlin')).toBe('2030-05-01T16:00:00Z')
    expect(wallToUTC('2030-01-15T18:00', 'Europe/Berlin')).toBe('2030-01-15T17:00:00Z')
    expect(wallToUTC('2030-05-01T09:30', 'America/New_York')).toBe('2030-05-01T13:30:00Z')
    expect(wallToUTC('', 'UTC')).toBeNull()
    expect(utcToWall('2030-05-01T16:00:00Z', 'Europe/Berlin')).toBe('2030-05-01T18:00')
    expect(utcToWall('2030-05-01T16:00:00Z', 'Asia/Tokyo')).toBe('2030-05-02T01:00')
  })

  it('refuses an end before the start, a link that is not http(s), and an event nowhere', () => {
    const base = { title: 'T', description: '', start: '2030-05-01T18:00', end: '2030-05-01T20:00', timezone: 'UTC', online_url: '', place: 'Here' }
    expect(validate(base).input?.starts_at).toBe('2030-05-01T18:00:00Z')
    expect(validate({ ...base, end: '2030-05-01T17:00' }).errors.end).toBe('form.errors.endBeforeStart')
    expect(validate({ ...base, end: base.start }).errors.end).toBe('form.errors.endBeforeStart')
    expect(validate({ ...base, online_url: 'ftp://x.example' }).errors.online_url).toBe('form.errors.url')
    expect(validate({ ...base, place: ' ' }).errors.place).toBe('form.errors.somewhere')
    expect(validate({ ...base, title: '' }).input).toBeUndefined()
  })
})

describe('EventsScreen', () => {
  it('lists upcoming events, switches to past ones, and offers the calendar', async () => {
    const asked: string[] = []
    stubFetch(async (input) => {
      const url = String(input)
      asked.push(url)
      if (url.startsWith('/api/v1/events?')) return page(url.includes('when=past') ? [old] : [meetup])
      if (url === '/api/v1/events/permissions') return json({ can_create: false, can_rsvp: false })
      return json({ message: 'not found' }, 404)
    })
    renderScreen(<EventsScreen />, '/events')
    const link = await screen.findByRole('link', { name: 'Berlin meetup' }, { timeout: 10_000 })
    expect(link.getAttribute('href')).toBe('/events/7')
    expect(screen.getByText(/3 going, 1 maybe/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'https://meet.example/berlin' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Subscribe to the calendar (.ics)' }).getAttribute('href')).toBe('/api/v1/events.ics')
    expect(screen.queryByRole('button', { name: 'New event' })).toBeNull()
    fireEvent.click(screen.getByRole('tab', { name: 'Past' }))
    expect(await screen.findByRole('link', { name: 'Old call' })).toBeTruthy()
    expect(screen.getByText('Ended')).toBeTruthy()
    expect(asked.some((u) => u.includes('when=past'))).toBe(true)
    expect(window.location.search).toBe('?when=past')
  })

  it('tells a signed-in user without the organizer role how to become one, with the role proposal prefilled', async () => {
    stubFetch(async (input) => {
      const url = String(input)
      if (url.startsWith('/api/v1/events?')) return page([])
      if (url === '/api/v1/events/permissions') return json({ can_create: false, can_rsvp: true })
      return json({ message: 'not found' }, 404)
    })
    signIn('0x00000000000000000000000000000000000000aa')
    renderScreen(<EventsScreen />, '/events')
    const link = await screen.findByRole('link', { name: 'Propose yourself as an event organizer' }, { timeout: 10_000 })
    expect(link.getAttribute('href')).toBe('/governance/new?type=role&role=event_organizer&action=grant&account=0x00000000000000000000000000000000000000aa')
    expect(screen.getByText(/Only event organizers can create events/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'New event' })).toBeNull()
  })

  it('shows the empty state, and the new-event form to organizers, which checks the times before sending', async () => {
    const posts: string[] = []
    stubFetch(async (input, init) => {
      const url = String(input)
      if (init?.method === 'POST') posts.push(url)
      if (url.startsWith('/api/v1/events?')) return page([])
      if (url === '/api/v1/events/permissions') return json({ can_create: true, can_rsvp: true })
      return json({ message: 'not found' }, 404)
    })
    signIn()
    renderScreen(<EventsScreen />, '/events')
    expect(await screen.findByText('No upcoming events. Event organizers add them here.', {}, { timeout: 10_000 })).toBeTruthy()
    fireEvent.click(await screen.findByRole('button', { name: 'New event' }))
    const form = screen.getByRole('form', { name: 'New event' })
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Hack night' } })
    fireEvent.change(within(form).getByLabelText('Starts'), { target: { value: '2030-05-01T20:00' } })
    fireEvent.change(within(form).getByLabelText('Ends'), { target: { value: '2030-05-01T19:00' } })
    fireEvent.change(within(form).getByLabelText('Place'), { target: { value: 'Lab' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Create event' }))
    expect(await screen.findByText('The end must be after the start.')).toBeTruthy()
    expect(posts).toEqual([])
  })
})

describe('EventScreen', () => {
  it('answers an event and cancels it after confirming', async () => {
    const calls: string[] = []
    let current: CommunityEvent = { ...meetup, my_rsvp: '' }
    stubFetch(async (input, init) => {
      const url = String(input)
      const method = init?.method ?? 'GET'
      calls.push(`${method} ${url} ${init?.body ?? ''}`)
      if (url === '/api/v1/events/7/rsvp') {
        current = { ...current, going: current.going + 1, my_rsvp: 'going' }
        return json(current)
      }
      if (url === '/api/v1/events/7' && method === 'DELETE') {
        current = { ...current, cancelled: true }
        return new Response(null, { status: 204 })
      }
      if (url === '/api/v1/events/7') return json(current)
      if (url.startsWith('/api/v1/events/7/rsvps')) return page([])
      if (url === '/api/v1/events/permissions') return json({ can_create: true, can_rsvp: true })
      return json({ message: 'not found' }, 404)
    })
    signIn()
    renderScreen(<EventScreen />, '/events/7')
    expect(await screen.findByRole('heading', { level: 1, name: 'Berlin meetup' }, { timeout: 10_000 })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Add to calendar (.ics)' }).getAttribute('href')).toBe('/api/v1/events/7.ics')
    fireEvent.click(screen.getByRole('button', { name: 'Going' }))
    expect(await screen.findByText('Your answer: Going. You can change it at any time.')).toBeTruthy()
    expect(calls).toContain('PUT /api/v1/events/7/rsvp {"status":"going"}')
    expect(screen.getByRole('button', { name: 'Going' }).getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel event' }))
    const dialog = screen.getByRole('dialog', { name: 'Cancel this event?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel the event' }))
    expect(await screen.findByText(/This event is cancelled/)).toBeTruthy()
    await waitFor(() => expect(calls.some((c) => c.startsWith('DELETE /api/v1/events/7'))).toBe(true))
    expect(screen.getByText('A cancelled event takes no answers.')).toBeTruthy()
  })

  it('shows a 404 page for a missing event', async () => {
    stubFetch()
    renderScreen(<EventScreen />, '/events/99')
    expect(await screen.findByRole('heading', { name: 'Event not found' }, { timeout: 10_000 })).toBeTruthy()
    expect(screen.getByText('There is no event #99.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'All events' }).getAttribute('href')).toBe('/events')
  })
})
