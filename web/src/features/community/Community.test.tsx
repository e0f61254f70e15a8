import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { forbidFetch, renderScreen } from '@/test/render'
import ForumScreen from './ForumScreen'
import ForumTopicScreen from './ForumTopicScreen'

// None of these screens has an API yet: any request would be a bug.
forbidFetch()

describe('ForumScreen', () => {
  it('has a disabled New topic button that says why: the forum does not exist yet', async () => {
    renderScreen(<ForumScreen />, '/forum')
    const button = await screen.findByRole('button', { name: 'New topic' })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    const note = document.getElementById(button.getAttribute('aria-describedby')!)
    expect(note?.textContent).toBe(
      "This node has no forum yet, so topics cannot be posted here. Use a repository's issues or the contact form instead.",
    )
    expect(screen.queryByText(/chain milestone/)).toBeNull()
  })

  it('shows the empty state in every category tab', async () => {
    renderScreen(<ForumScreen />, '/forum')
    const tabs = await screen.findAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['All', 'General', 'Help', 'Showcase', 'Development', 'Announcements'])
    fireEvent.click(screen.getByRole('tab', { name: 'Showcase' }))
    const panel = screen.getByRole('tabpanel', { name: 'Showcase' })
    expect(within(panel).getByText('Projects built with or hosted on dForge.')).toBeTruthy()
    expect(within(panel).getByText('No topics yet')).toBeTruthy()
  })

  it('explains pinned, locked and accepted-answer topics', async () => {
    renderScreen(<ForumScreen />, '/forum')
    expect(await screen.findByText('Pinned')).toBeTruthy()
    expect(screen.getByText('Locked')).toBeTruthy()
    expect(screen.getByText('Accepted answer')).toBeTruthy()
    expect(screen.getByText('The topic can be read but takes no new replies.')).toBeTruthy()
  })
})

describe('ForumTopicScreen', () => {
  it('says the topic is not found and shows the reply box disabled with the reason', async () => {
    renderScreen(<ForumTopicScreen />, '/forum/topic/42')
    expect(await screen.findByRole('heading', { level: 1, name: 'Topic not found' })).toBeTruthy()
    expect(screen.getByText('There is no topic “42”. The forum has no topics yet.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to the forum' }).getAttribute('href')).toBe('/forum')
    const reply = screen.getByLabelText('Your reply') as HTMLTextAreaElement
    expect(reply.disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Post reply' }) as HTMLButtonElement).disabled).toBe(true)
    const note = document.getElementById(reply.getAttribute('aria-describedby')!)?.textContent
    expect(note).toBe('This node has no forum yet, so there are no topics to reply to.')
    expect(note).not.toMatch(/chain milestone/)
  })
})
