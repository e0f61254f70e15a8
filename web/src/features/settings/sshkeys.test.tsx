import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, serverUser } from '@/test/auth'
import { ADDRESS } from '@/test/wallet'
import { useAuthStore } from '@/stores/auth'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import SettingsScreen from './SettingsScreen'
import { schemaFixture } from '@/test/schemaFixture'
import { keyProblem, type PublicKey } from './sshKeysApi'

preloadNamespaces('settings', 'auth', 'sshkeys')

const PUB = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ8nT6z2kF0Qk7fJmX0m3w0WcPq2m7bqv4o2XyYQ1a9b ada@laptop'

function signedIn() {
  act(() => useAuthStore.getState().startSession({ username: 'ada', walletAddress: ADDRESS, displayName: 'Ada Lovelace' }, 'csrf-s'))
}

describe('SSH keys tab', () => {
  it('adds a key, lists it with its fingerprint and deletes it after a confirmation', async () => {
    signedIn()
    const keys: PublicKey[] = []
    const api = fakeApi({
      'GET /api/v1/user': () => serverUser(),
      'GET /api/v1/user/keys': () => new Response(JSON.stringify(keys), { headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(keys.length) } }),
      'POST /api/v1/user/keys': (req) => {
        const { title, key } = req.body as { title: string; key: string }
        const k = schemaFixture('Key', { id: 3, title, key, fingerprint: 'SHA256:abcDEF123', created_at: '2026-11-20T10:00:00Z' })
        keys.push(k)
        return json(k, 201)
      },
      'DELETE /api/v1/user/keys/3': () => {
        keys.length = 0
        return new Response(null, { status: 204 })
      },
    })
    renderScreen(<SettingsScreen />, '/settings?tab=ssh')
    expect(await screen.findByText('You have no SSH keys yet.')).toBeTruthy()

    // Mistakes are named under their field and nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Add key' }))
    expect(screen.getByText('Give the key a title.')).toBeTruthy()
    expect(screen.getByText('Paste a public key.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Public key'), { target: { value: '-----BEGIN OPENSSH PRIVATE KEY-----' } })
    expect(screen.getByText('This is a private key. Paste the public key instead (the .pub file).')).toBeTruthy()
    expect(api.find('POST', '/api/v1/user/keys')).toHaveLength(0)

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'laptop' } })
    fireEvent.change(screen.getByLabelText('Public key'), { target: { value: PUB } })
    fireEvent.click(screen.getByRole('button', { name: 'Add key' }))
    const list = await screen.findByRole('list', { name: 'Your keys' })
    expect(within(list).getByText('laptop')).toBeTruthy()
    expect(within(list).getByText('SHA256:abcDEF123')).toBeTruthy()
    const [sent] = api.find('POST', '/api/v1/user/keys')
    expect(sent.body).toEqual({ title: 'laptop', key: PUB })
    expect(sent.headers.get('X-CSRF-Token')).toBe('csrf-s')

    fireEvent.click(within(list).getByRole('button', { name: 'Delete the key laptop' }))
    const confirm = within(list).getByRole('group', { name: 'Delete the key laptop' })
    expect(api.find('DELETE', '/api/v1/user/keys/3')).toHaveLength(0)
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('You have no SSH keys yet.')).toBeTruthy()
    expect(api.find('DELETE', '/api/v1/user/keys/3')).toHaveLength(1)
  })

  it('shows the server refusal of a key', async () => {
    signedIn()
    fakeApi({
      'GET /api/v1/user': () => serverUser(),
      'GET /api/v1/user/keys': () => [],
      'POST /api/v1/user/keys': () => json({ message: 'the key SHA256:x is registered already; a key belongs to one account', code: 'key_taken' }, 422),
    })
    renderScreen(<SettingsScreen />, '/settings?tab=ssh')
    await screen.findByText('You have no SSH keys yet.')
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'again' } })
    fireEvent.change(screen.getByLabelText('Public key'), { target: { value: PUB } })
    fireEvent.click(screen.getByRole('button', { name: 'Add key' }))
    expect((await screen.findByRole('alert')).textContent).toContain('registered already')
  })

  it('checks a pasted key locally', () => {
    expect(keyProblem('  ')).toBe('empty')
    expect(keyProblem('hello world')).toBe('format')
    expect(keyProblem(PUB)).toBeNull()
    expect(keyProblem('ssh-rsa AAAAB3NzaC1yc2E=')).toBeNull()
  })
})
