import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, WALLET } from '@/test/render'
import ProfileScreen from './ProfileScreen'
import UserScreen from './UserScreen'

preloadNamespaces('users')

describe('ProfileScreen', () => {
  it('asks a signed-out visitor to sign in with a wallet', async () => {
    renderScreen(<ProfileScreen />, '/profile')
    expect(await screen.findByText('Sign in with your wallet to see your profile.')).toBeTruthy()
    expect(screen.getByText(/Wallet sign-in \(Sign-In with Ethereum\) becomes available/)).toBeTruthy()
  })

  it('shows the signed-in user, their wallet and no invented scores', async () => {
    signIn(WALLET)
    renderScreen(<ProfileScreen />, '/profile')
    expect(await screen.findByRole('heading', { level: 1, name: 'ada' })).toBeTruthy()
    expect(screen.getByText(WALLET)).toBeTruthy()
    expect(screen.getByText('No contributions yet')).toBeTruthy()
    expect(screen.queryByText('0')).toBeNull()
    expect(screen.getByRole('link', { name: 'Edit profile in settings' }).getAttribute('href')).toBe('/settings')
  })

  it('leaves out the wallet row when no wallet is connected', async () => {
    signIn()
    renderScreen(<ProfileScreen />, '/profile')
    expect(await screen.findByText('Username')).toBeTruthy()
    expect(screen.queryByText('Wallet address')).toBeNull()
  })
})

describe('UserScreen', () => {
  it('says the user is not found and names the id', async () => {
    renderScreen(<UserScreen />, '/user/grace')
    expect(await screen.findByRole('heading', { level: 1, name: 'User not found' })).toBeTruthy()
    expect(screen.getByText(/There is no user “grace” on this node/)).toBeTruthy()
  })
})
