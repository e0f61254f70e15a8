import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn, stubFetch, WALLET } from '@/test/render'
import LeaderboardScreen from './LeaderboardScreen'
import RewardsScreen from './RewardsScreen'

preloadNamespaces('rewards', 'users')

describe('RewardsScreen', () => {
  it('asks a signed-out visitor to sign in and still explains what earns rewards', async () => {
    renderScreen(<RewardsScreen />, '/rewards')
    expect(await screen.findByText('Sign in with your wallet to see your balance, rewards and transactions.')).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Balance' })).toBeNull()
    expect(screen.getByRole('heading', { level: 2, name: 'What earns rewards' })).toBeTruthy()
    expect(screen.getByText(/a merged pull request, to its author/)).toBeTruthy()
    expect(screen.getByText(/Caps apply per account, per repository and per epoch/)).toBeTruthy()
  })

  it('shows a signed-in user empty sections, no invented numbers, and disabled wallet actions', async () => {
    const fetchMock = stubFetch()
    signIn(WALLET)
    renderScreen(<RewardsScreen />, '/rewards')
    expect(await screen.findByRole('heading', { level: 2, name: 'Balance' })).toBeTruthy()
    expect(screen.getByText(WALLET)).toBeTruthy()
    expect(screen.getByText('No rewards earned yet')).toBeTruthy()
    expect(screen.getByText('No transactions yet')).toBeTruthy()
    for (const name of ['Send', 'Receive', 'Tip', 'Stake', 'Unstake']) {
      const button = screen.getByRole('button', { name }) as HTMLButtonElement
      expect(button.disabled).toBe(true)
      expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/chain milestone/)
    }
    expect(screen.queryByText(/\b0\b/)).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('LeaderboardScreen', () => {
  it('shows the table header and the empty state', async () => {
    renderScreen(<LeaderboardScreen />, '/leaderboard')
    expect(await screen.findByText('No contributions ranked yet')).toBeTruthy()
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Rank', 'Contributor', 'Score', 'Commits', 'PRs', 'Issues', 'Reviews'])
    expect(screen.getByRole('table', { name: 'Top contributors this week' })).toBeTruthy()
  })

  it('switches between periods', async () => {
    renderScreen(<LeaderboardScreen />, '/leaderboard')
    fireEvent.click(await screen.findByRole('tab', { name: 'All time' }))
    expect(screen.getByRole('tab', { name: 'All time' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('table', { name: 'Top contributors of all time' })).toBeTruthy()
    fireEvent.keyDown(screen.getByRole('tab', { name: 'All time' }), { key: 'ArrowLeft' })
    expect(screen.getByRole('table', { name: 'Top contributors this month' })).toBeTruthy()
  })
})
