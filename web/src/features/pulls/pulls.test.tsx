import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import { NoPullRequests } from './EmptyStates'
import PullRequestScreen from './PullRequestScreen'

preloadNamespaces('pulls')

describe('PullRequestScreen', () => {
  it('says the pull request is not found and names its number', async () => {
    const fetchMock = stubFetch()
    renderScreen(<PullRequestScreen />, '/pr/7')
    expect(await screen.findByRole('heading', { level: 1, name: 'Pull request not found' })).toBeTruthy()
    expect(screen.getByText(/There is no pull request #7 on this node/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Search dForge' }).getAttribute('href')).toBe('/search')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('reads "No pull requests found" for an empty pull request list', async () => {
    renderScreen(<NoPullRequests />, '/')
    expect((await screen.findByRole('status')).textContent).toBe('No pull requests found')
  })
})
