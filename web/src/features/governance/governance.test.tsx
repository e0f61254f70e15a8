import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen } from '@/test/render'
import GovernanceScreen from './GovernanceScreen'

preloadNamespaces('governance')

const selected = () => screen.getByRole('tab', { selected: true }).textContent

describe('GovernanceScreen', () => {
  it('lists no proposals yet and explains voting power', async () => {
    renderScreen(<GovernanceScreen />, '/governance')
    expect(await screen.findByText('No proposals yet')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2, name: 'How voting power works' })).toBeTruthy()
    expect(screen.getByText('Voting power = stake × reputation multiplier')).toBeTruthy()
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All', 'Active', 'Passed', 'Rejected', 'Executed'])
  })

  it('switches the status filter by click and by arrow keys', async () => {
    renderScreen(<GovernanceScreen />, '/governance')
    fireEvent.click(await screen.findByRole('tab', { name: 'Passed' }))
    expect(selected()).toBe('Passed')
    expect(screen.getByText('No passed proposals')).toBeTruthy()
    expect(screen.queryByText('No proposals yet')).toBeNull()

    fireEvent.keyDown(screen.getByRole('tab', { name: 'Passed' }), { key: 'ArrowRight' })
    expect(selected()).toBe('Rejected')
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Rejected' }))
    expect(screen.getByRole('tabpanel', { name: 'Rejected' }).textContent).toBe('No rejected proposals')

    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    expect(selected()).toBe('Executed')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(selected()).toBe('All')
  })

  it('renders Create proposal disabled with the reason', async () => {
    renderScreen(<GovernanceScreen />, '/governance')
    const button = (await screen.findByRole('button', { name: 'Create proposal' })) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/governance milestone/)
  })
})
