import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { forbidFetch, renderScreen } from '@/test/render'
import CommunityScreen from './CommunityScreen'
import EventsScreen from './EventsScreen'

// None of these screens has an API yet: any request would be a bug.
forbidFetch()

describe('CommunityScreen', () => {
  it('links to every way of taking part and is honest about stats and featured projects', async () => {
    renderScreen(<CommunityScreen />, '/community')
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
    expect(screen.getByText(/dForge has no forum of its own yet/)).toBeTruthy()
    expect(screen.queryByText(/once accounts arrive/)).toBeNull()
  })
})

describe('EventsScreen', () => {
  it('shows no upcoming events and how to propose one', async () => {
    renderScreen(<EventsScreen />, '/events')
    expect(await screen.findByText('No upcoming events')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2, name: 'Propose an event' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/help/contact')
  })
})
