import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import CommunityScreen from './CommunityScreen'
import EventsScreen from './EventsScreen'
import ForumScreen from './ForumScreen'
import ForumTopicScreen from './ForumTopicScreen'

function renderAt(path: string, Screen: ComponentType) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <RouteContext value={matchRoute(path)}>
        <Suspense fallback={null}>
          <Screen />
        </Suspense>
      </RouteContext>
    </QueryClientProvider>,
  )
}

// None of these screens has an API yet: any request would be a bug.
const fetchMock = vi.fn(async () => new Response(null, { status: 500 }))

beforeAll(() => {
  initI18n()
})

afterEach(() => {
  cleanup()
  expect(fetchMock).not.toHaveBeenCalled()
  vi.unstubAllGlobals()
})

function stubFetch() {
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
}

describe('CommunityScreen', () => {
  it('links to every way of taking part and is honest about stats and featured projects', async () => {
    stubFetch()
    renderAt('/community', CommunityScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Community' })).toBeTruthy()
    const hrefs = Object.fromEntries(
      ['Visit the forum', 'Read the blog', 'See events', 'Get started', 'How governance works'].map((name) => [
        name,
        screen.getByRole('link', { name }).getAttribute('href'),
      ]),
    )
    expect(hrefs).toEqual({
      'Visit the forum': '/forum',
      'Read the blog': '/blog',
      'See events': '/events',
      'Get started': '/docs/getting-started',
      'How governance works': '/governance',
    })
    expect(screen.getByText(/appear here once the chain records activity/)).toBeTruthy()
    expect(screen.getByText('No featured projects yet')).toBeTruthy()
  })
})

describe('ForumScreen', () => {
  it('has a disabled New topic button that says why', async () => {
    stubFetch()
    renderAt('/forum', ForumScreen)
    const button = await screen.findByRole('button', { name: 'New topic' })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    const note = document.getElementById(button.getAttribute('aria-describedby')!)
    expect(note?.textContent).toMatch(/wallet sign-in arrives with the chain milestone/)
  })

  it('shows the empty state in every category tab', async () => {
    stubFetch()
    renderAt('/forum', ForumScreen)
    const tabs = await screen.findAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['All', 'General', 'Help', 'Showcase', 'Development', 'Announcements'])
    fireEvent.click(screen.getByRole('tab', { name: 'Showcase' }))
    const panel = screen.getByRole('tabpanel', { name: 'Showcase' })
    expect(within(panel).getByText('Projects built with or hosted on dForge.')).toBeTruthy()
    expect(within(panel).getByText('No topics yet')).toBeTruthy()
  })

  it('explains pinned, locked and accepted-answer topics', async () => {
    stubFetch()
    renderAt('/forum', ForumScreen)
    expect(await screen.findByText('Pinned')).toBeTruthy()
    expect(screen.getByText('Locked')).toBeTruthy()
    expect(screen.getByText('Accepted answer')).toBeTruthy()
    expect(screen.getByText('The topic can be read but takes no new replies.')).toBeTruthy()
  })
})

describe('ForumTopicScreen', () => {
  it('says the topic is not found and shows the reply box disabled with the reason', async () => {
    stubFetch()
    renderAt('/forum/topic/42', ForumTopicScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Topic not found' })).toBeTruthy()
    expect(screen.getByText('There is no topic “42”. The forum has no topics yet.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to the forum' }).getAttribute('href')).toBe('/forum')
    const reply = screen.getByLabelText('Your reply') as HTMLTextAreaElement
    expect(reply.disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Post reply' }) as HTMLButtonElement).disabled).toBe(true)
    expect(document.getElementById(reply.getAttribute('aria-describedby')!)?.textContent).toMatch(/Replies need an account/)
  })
})

describe('EventsScreen', () => {
  it('shows no upcoming events and how to propose one', async () => {
    stubFetch()
    renderAt('/events', EventsScreen)
    expect(await screen.findByText('No upcoming events')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2, name: 'Propose an event' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/help/contact')
  })
})
