import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Header } from '@/app/Header'
import { json, renderScreen } from '@/test/render'
import { fakeApi } from '@/test/auth'
import { useAuthStore } from '@/stores/auth'
import { resetSessionSync } from '@/features/auth/session'

function signedIn(isAdmin = false) {
  resetSessionSync()
  fakeApi({
    'GET /api/v1/auth/session': () => json({ message: 'not signed in', code: 'unauthenticated' }, 401),
  })
  act(() => useAuthStore.getState().startSession({ username: 'ada', walletAddress: '0x1', isAdmin }, 'csrf-1'))
}

const menuButton = () => screen.getByRole('button', { name: 'Menu' })

describe('header', () => {
  it('navigates with real links, so an item opens in a new tab or can be copied', () => {
    renderScreen(<Header />, '/governance/proposals')
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]
    const links = within(nav).getAllByRole('link')
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Home', '/home'],
      ['About', '/about'],
      ['Explore', '/explore'],
      ['Governance', '/governance'],
      ['Rewards', '/rewards'],
    ])
    expect(within(nav).getByRole('link', { name: 'Governance' }).getAttribute('aria-current')).toBe('page')
  })

  it('opens the menu drawer from the menu button, and Escape closes it', () => {
    renderScreen(<Header />, '/about')
    expect(menuButton().getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(menuButton())
    expect(menuButton().getAttribute('aria-expanded')).toBe('true')
    const drawer = document.getElementById(menuButton().getAttribute('aria-controls')!)!
    expect(within(drawer).getByRole('navigation', { name: 'Main' })).toBeTruthy()
    expect(within(drawer).getByRole('combobox', { name: 'Language' })).toBeTruthy()
    expect(within(drawer).getByRole('button', { name: 'Toggle theme' })).toBeTruthy()
    expect(document.activeElement).toBe(within(drawer).getByRole('link', { name: 'Home' }))
    fireEvent.keyDown(document, { key: 'Escape' })
    expect(menuButton().getAttribute('aria-expanded')).toBe('false')
    expect(document.getElementById(drawer.id)).toBeNull()
  })

  it('closes the drawer on a click outside the header', () => {
    renderScreen(<Header />, '/about')
    fireEvent.click(menuButton())
    fireEvent.pointerDown(document.body)
    expect(menuButton().getAttribute('aria-expanded')).toBe('false')
  })

  it('puts the account in the drawer with its names written out', () => {
    signedIn(true)
    renderScreen(<Header />, '/about')
    fireEvent.click(menuButton())
    const drawer = document.getElementById(menuButton().getAttribute('aria-controls')!)!
    expect(within(drawer).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/profile')
    expect(within(drawer).getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin')
    const settings = within(drawer).getByRole('link', { name: 'Settings' })
    expect(settings.textContent).toBe('Settings')
    expect(settings.getAttribute('href')).toBe('/settings')
    expect(within(drawer).getByRole('button', { name: 'Logout' }).textContent).toBe('Logout')
  })

  it('shows the account in the row as a profile link, a Settings link and a Logout button, each labelled', () => {
    signedIn()
    renderScreen(<Header />, '/about')
    const row = document.querySelector('.header-inner')!
    expect(within(row as HTMLElement).getByRole('link', { name: 'ada' })).toBeTruthy()
    // Settings is a link, so it opens in a new tab or can be copied as the navigation can.
    const settings = within(row as HTMLElement).getByRole('link', { name: 'Settings' })
    expect(settings.getAttribute('href')).toBe('/settings')
    expect(settings.getAttribute('title')).toBe('Settings')
    expect(within(row as HTMLElement).getByRole('button', { name: 'Logout' }).getAttribute('title')).toBe('Logout')
    expect(within(row as HTMLElement).queryByRole('link', { name: 'Admin' })).toBeNull()
  })
})
