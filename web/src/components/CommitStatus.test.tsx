import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { REPO, stubApi } from '@/test/forge'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { CommitStatusIcon } from './CommitStatus'

preloadNamespaces('statuses')

const SHA = 'b'.repeat(40)
const status = (id: number, context: string, state: string, target_url = '') => ({ id, status: state, context, description: `${context} says ${state}`, target_url, created_at: '2026-01-01T00:00:00Z' })

describe('CommitStatusIcon', () => {
  it('shows the combined state and opens the list of checks', async () => {
    stubApi({
      [`GET ${REPO}/commits/${SHA}/status`]: {
        state: 'failure',
        sha: SHA,
        total_count: 2,
        statuses: [status(1, 'build', 'success', 'https://ci.example/1'), status(2, 'lint', 'failure', 'javascript:alert(1)')],
      },
    })
    renderScreen(<CommitStatusIcon owner="ada" repo="engine" sha={SHA} />, '/')
    const summary = await screen.findByLabelText('Checks: failing (2)')
    fireEvent.click(summary)
    expect(screen.getByText('build')).toBeTruthy()
    expect(screen.getByText(/lint says failure/)).toBeTruthy()
    const links = screen.getAllByRole('link', { name: 'Details' })
    expect(links).toHaveLength(1)
    expect(links[0].getAttribute('href')).toBe('https://ci.example/1')
  })

  it('shows nothing for a commit no check reported on', async () => {
    const api = stubApi({ [`GET ${REPO}/commits/${SHA}/status`]: { state: '', sha: SHA, total_count: 0, statuses: [] } })
    const { container } = renderScreen(<CommitStatusIcon owner="ada" repo="engine" sha={SHA} />, '/')
    await waitFor(() => expect(api.sent('GET', `${REPO}/commits/${SHA}/status`)).toHaveLength(1))
    expect(container.querySelector('.commit-status')).toBeNull()
  })
})
