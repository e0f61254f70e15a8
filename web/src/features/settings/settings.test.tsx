import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, WALLET } from '@/test/render'
import { validateProfile } from './profileForm'
import SettingsScreen from './SettingsScreen'

preloadNamespaces('settings', 'users')

function typeInto(label: string, value: string) {
  const input = screen.getByLabelText(label)
  fireEvent.change(input, { target: { value } })
  fireEvent.blur(input)
  return input
}

describe('SettingsScreen', () => {
  it('asks a signed-out visitor to sign in', async () => {
    renderScreen(<SettingsScreen />, '/settings')
    expect(await screen.findByText('Sign in with your wallet to change your settings.')).toBeTruthy()
    expect(screen.queryByRole('tablist')).toBeNull()
  })

  it('validates the profile fields once the user leaves them', async () => {
    signIn(WALLET)
    renderScreen(<SettingsScreen />, '/settings')
    const website = (await screen.findByLabelText('Website')) as HTMLInputElement
    fireEvent.change(website, { target: { value: 'ftp://example.org' } })
    // Not yet: the user is still typing.
    expect(screen.queryByText('Enter a website address that starts with http:// or https://.')).toBeNull()
    fireEvent.blur(website)
    expect(screen.getByText('Enter a website address that starts with http:// or https://.')).toBeTruthy()
    expect(website.getAttribute('aria-invalid')).toBe('true')

    typeInto('Website', 'https://example.org/me')
    expect(screen.queryByText('Enter a website address that starts with http:// or https://.')).toBeNull()
    expect(website.getAttribute('aria-invalid')).toBeNull()

    typeInto('Email', 'not-an-email')
    expect(screen.getByText('Enter a valid email address, like name@example.org.')).toBeTruthy()
    typeInto('Email', '')
    expect(screen.queryByText('Enter a valid email address, like name@example.org.')).toBeNull()

    typeInto('Location', 'x'.repeat(51))
    expect(screen.getByText('Use at most 50 characters.')).toBeTruthy()
  })

  it('shows the wallet read-only and Save disabled with the reason', async () => {
    signIn(WALLET)
    renderScreen(<SettingsScreen />, '/settings')
    const wallet = (await screen.findByLabelText('Wallet address')) as HTMLInputElement
    expect(wallet.value).toBe(WALLET)
    expect(wallet.readOnly).toBe(true)
    const save = screen.getByRole('button', { name: 'Save profile' }) as HTMLButtonElement
    expect(save.disabled).toBe(true)
    expect(document.getElementById(save.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Profiles are saved once accounts land in the chain milestone.',
    )
  })

  it('moves between tabs with the arrow keys', async () => {
    signIn(WALLET)
    renderScreen(<SettingsScreen />, '/settings')
    const profile = await screen.findByRole('tab', { name: 'Profile' })
    expect(profile.getAttribute('aria-selected')).toBe('true')
    expect(profile.tabIndex).toBe(0)
    expect(screen.getByRole('tab', { name: 'Security' }).tabIndex).toBe(-1)

    fireEvent.keyDown(profile, { key: 'ArrowLeft' })
    const security = screen.getByRole('tab', { name: 'Security' })
    expect(security.getAttribute('aria-selected')).toBe('true')
    expect(document.activeElement).toBe(security)
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeTruthy()
    expect(screen.getByText(/^Optional\./)).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Generate new token' }) as HTMLButtonElement).disabled).toBe(true)

    fireEvent.keyDown(security, { key: 'Home' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(screen.getByRole('tab', { name: 'Account' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByText('Your username is ada.')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Change username' }) as HTMLButtonElement).disabled).toBe(true)

    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    const mentions = screen.getByLabelText('Mentions of your username') as HTMLInputElement
    expect(mentions.disabled).toBe(true)
  })
})

describe('validateProfile', () => {
  const empty = { displayName: '', bio: '', location: '', website: '', email: '' }

  it('accepts an empty profile: every field is optional', () => {
    expect(validateProfile(empty)).toEqual({})
  })

  it('checks lengths in characters and the website and email formats', () => {
    expect(validateProfile({ ...empty, displayName: '😀'.repeat(100) })).toEqual({})
    expect(validateProfile({ ...empty, displayName: 'a'.repeat(101) })).toEqual({ displayName: { key: 'tooLong', max: 100 } })
    expect(validateProfile({ ...empty, bio: 'a'.repeat(256) })).toEqual({ bio: { key: 'tooLong', max: 255 } })
    expect(validateProfile({ ...empty, website: 'example.org' })).toEqual({ website: { key: 'website' } })
    expect(validateProfile({ ...empty, website: 'javascript:alert(1)' })).toEqual({ website: { key: 'website' } })
    expect(validateProfile({ ...empty, website: 'http://example.org' })).toEqual({})
    expect(validateProfile({ ...empty, email: 'a@b' })).toEqual({ email: { key: 'email' } })
    expect(validateProfile({ ...empty, email: ' ada@example.org ' })).toEqual({})
  })
})
