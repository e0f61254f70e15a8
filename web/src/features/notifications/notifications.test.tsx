import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import NotificationsScreen from './NotificationsScreen'

preloadNamespaces('notifications', 'users')

describe('NotificationsScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderScreen(<NotificationsScreen />, '/notifications')
    expect(await screen.findByText('Sign in with your wallet to see your notifications.')).toBeTruthy()
    expect(screen.queryByRole('tablist')).toBeNull()
  })

  it('shows the empty states under the unread and all tabs', async () => {
    const fetchMock = stubFetch()
    signIn(WALLET)
    renderScreen(<NotificationsScreen />, '/notifications')
    expect(await screen.findByText('No unread notifications')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'All' }))
    expect(screen.getByRole('tabpanel').textContent).toBe('No notifications')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
