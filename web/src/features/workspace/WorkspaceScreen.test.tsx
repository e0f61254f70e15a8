import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { matchRoute } from '@/lib/routes'
import { forbidFetch, renderScreen } from '@/test/render'
import WorkspaceScreen from './WorkspaceScreen'

forbidFetch()

describe('WorkspaceScreen', () => {
  it('serves /monitoring from the route table', () => {
    expect(matchRoute('/monitoring').screen).toBe('workspace')
  })

  it('/monitoring is public and links to status, analytics, metrics and the health check', async () => {
    renderScreen(<WorkspaceScreen />, '/monitoring')
    expect(await screen.findByRole('heading', { level: 1, name: 'Monitoring' })).toBeTruthy()
    expect(screen.queryByText(/Sign in with your wallet/)).toBeNull()
    for (const path of ['/status', '/analytics', '/metrics', '/healthz']) {
      expect(screen.getByRole('link', { name: `Open ${path}` }).getAttribute('href')).toBe(path)
    }
  })
})
