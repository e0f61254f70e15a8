import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { matchRoute } from '@/lib/routes'
import { forbidFetch, renderScreen, signIn } from '@/test/render'
import { WORKSPACE_SLUGS } from './slugs'
import WorkspaceScreen from './WorkspaceScreen'

const renderAt = (path: string) => renderScreen(<WorkspaceScreen />, path)

forbidFetch()

describe('WorkspaceScreen', () => {
  it('serves every workspace route from the route table', () => {
    for (const slug of WORKSPACE_SLUGS) expect(matchRoute(`/${slug}`).screen).toBe('workspace')
  })

  it.each([
    ['admin', 'Sign in with your wallet to administer this node.'],
  ])('/%s asks a signed-out visitor to sign in', async (slug, notice) => {
    renderAt(`/${slug}`)
    const status = await screen.findByRole('status')
    expect(status.textContent).toContain(notice)
    expect(status.textContent).toContain('Use Login at the top of the page: your wallet signs a short message. No e-mail, no password.')
    expect(screen.getByRole('link', { name: 'How wallet sign-in works' }).getAttribute('href')).toBe('/docs/wallet-sign-in')
  })

  it.each([
  ])('/%s shows a signed-in user its empty state', async (slug, empty) => {
    signIn()
    renderAt(`/${slug}`)
    expect(await screen.findByText(empty)).toBeTruthy()
    expect(screen.queryByText(/Sign in with your wallet/)).toBeNull()
  })

  it('/admin tells a signed-in user that administration is for the node operator', async () => {
    signIn()
    renderAt('/admin')
    expect(await screen.findByText(/This node has no administration page. Its operator configures it/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Configuration' }).getAttribute('href')).toBe('/docs/configuration')
  })

  it('/monitoring is public and links to status, analytics, metrics and the health check', async () => {
    renderAt('/monitoring')
    expect(await screen.findByRole('heading', { level: 1, name: 'Monitoring' })).toBeTruthy()
    expect(screen.queryByText(/Sign in with your wallet/)).toBeNull()
    for (const path of ['/status', '/analytics', '/metrics', '/healthz']) {
      expect(screen.getByRole('link', { name: `Open ${path}` }).getAttribute('href')).toBe(path)
    }
  })
})
