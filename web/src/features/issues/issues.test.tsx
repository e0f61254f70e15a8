import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import { NoDescription, NoIssues } from './EmptyStates'
import IssueScreen from './IssueScreen'

preloadNamespaces('issues')

describe('IssueScreen', () => {
  it('says which issue is not found, without asking the server', async () => {
    const fetchMock = stubFetch()
    renderScreen(<IssueScreen />, '/issue/42')
    expect(await screen.findByRole('heading', { level: 1, name: 'Issue #42 not found' })).toBeTruthy()
    expect(document.title).toBe('Issue #42 not found · dForge')
    expect(screen.getByRole('link', { name: 'Explore repositories' }).getAttribute('href')).toBe('/explore')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('issue empty states', () => {
  it('reads "No description provided" for a missing description', async () => {
    renderScreen(<NoDescription />, '/')
    expect(await screen.findByText('No description provided')).toBeTruthy()
  })

  it('reads "No issues found" for an empty issue list', async () => {
    renderScreen(<NoIssues />, '/')
    expect((await screen.findByRole('status')).textContent).toBe('No issues found')
  })
})
