import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import NewPullScreen from './NewPullScreen'

preloadNamespaces('pulls', 'issues', 'repositories', 'wallet')

const PATCH = 'diff --git a/mill.go b/mill.go\n--- a/mill.go\n+++ b/mill.go\n@@ -1,2 +1,2 @@\n package mill\n-const speed = 1\n+const speed = 2\n'
const branches = [
  { name: 'main', commit: { id: 'a', message: '' } },
  { name: 'fast', commit: { id: 'b', message: '' } },
]

describe('NewPullScreen compare', () => {
  it('shows the commits and the diff the pull request would bring', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: branches,
      [`GET ${REPO}/compare/main...fast`]: {
        total_commits: 1,
        commits: [{ sha: 'b'.repeat(40), commit: { message: 'Turn faster\n\nTwice.', author: { name: 'ada', email: '', date: '' }, committer: { name: 'ada', email: '', date: '' } }, author: null, committer: null, parents: [] }],
        files: [{ filename: 'mill.go', patch: PATCH }],
      },
    })
    signIn()
    renderScreen(<NewPullScreen />, '/ada/engine/pulls/new')
    expect(await screen.findByText('Commits: 1 · Files changed: 1')).toBeTruthy()
    expect(screen.getByText('Turn faster')).toBeTruthy()
    expect(screen.getAllByText(/const speed = 2/).length).toBeGreaterThan(0)
    expect(api.sent('GET', `${REPO}/compare/main...fast`)).toHaveLength(1)
  })

  it('says when the branches are identical', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: branches,
      [`GET ${REPO}/compare/main...fast`]: { total_commits: 0, commits: [], files: [] },
    })
    signIn()
    renderScreen(<NewPullScreen />, '/ada/engine/pulls/new')
    expect(await screen.findByText('These branches are identical: there is nothing to compare.')).toBeTruthy()
  })
})
