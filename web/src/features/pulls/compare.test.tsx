import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { codeCell, commitFixture, REPO, repoFixture, stubApi } from '@/test/forge'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import NewPullScreen from './NewPullScreen'
import { schemaFixture } from '@/test/schemaFixture'

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
        commits: [commitFixture('b'.repeat(40), 'Turn faster\n\nTwice.', { name: 'ada' })],
        files: [{ filename: 'mill.go', patch: PATCH }],
      },
    })
    signIn()
    renderScreen(<NewPullScreen />, '/ada/engine/pulls/new')
    expect(await screen.findByText('Commits: 1 · Files changed: 1')).toBeTruthy()
    expect(screen.getByText('Turn faster')).toBeTruthy()
    expect(await screen.findByText(codeCell('const speed = 2'))).toBeTruthy()
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

describe('NewPullScreen across forks', () => {
  const BOB = '/api/v1/repos/bob/engine'
  const bobs = repoFixture({ id: 7, owner: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), name: 'engine', full_name: 'bob/engine' })
  const adas = repoFixture({ id: 8, owner: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), name: 'engine', full_name: 'ada/engine', fork: true, parent: schemaFixture('Repo', bobs) })
  const carols = repoFixture({ id: 9, owner: schemaFixture('ForgeUser', { id: 3, login: 'carol' }), name: 'engine', full_name: 'carol/engine', fork: true, parent: schemaFixture('Repo', bobs) })
  const at = (name: string, timestamp: string) => ({ name, commit: { id: name, message: '', timestamp } })
  const empty = { total_commits: 0, commits: [], files: [] }
  let go: ReturnType<typeof vi.spyOn>
  beforeEach(() => {
    go = vi.spyOn(nav, 'go').mockImplementation(() => {})
  })
  afterEach(() => go.mockRestore())

  const forkApi = (extra: Record<string, unknown> = {}) =>
    stubApi({
      [`GET ${BOB}`]: bobs,
      [`GET ${BOB}/branches`]: [at('main', '2026-01-01T00:00:00Z'), at('docs', '2026-01-02T00:00:00Z')],
      [`GET ${BOB}/forks`]: [carols, adas],
      [`GET ${REPO}/branches`]: [at('main', '2026-01-01T00:00:00Z'), at('fresh', '2026-01-05T00:00:00Z'), at('old', '2026-01-03T00:00:00Z')],
      [`GET /api/v1/repos/carol/engine/branches`]: [at('main', '2026-01-01T00:00:00Z'), at('fix', '2026-01-04T00:00:00Z')],
      [`GET ${BOB}/compare/main...ada%3Afresh`]: empty,
      [`GET ${BOB}/compare/main...carol%3Afix`]: empty,
      [`GET ${BOB}/compare/main...docs`]: empty,
      [`POST ${BOB}/pulls`]: { number: 3 },
      ...extra,
    })

  it("preselects the contributor's own fork and its newest branch, keeps them in the URL and opens the pull request from it", async () => {
    const api = forkApi()
    signIn()
    renderScreen(<NewPullScreen />, '/bob/engine/pulls/new')
    const headRepo = (await screen.findByLabelText('Head repository')) as HTMLSelectElement
    expect(headRepo.value).toBe('8')
    expect([...headRepo.options].map((o) => o.text)).toEqual(['bob/engine', 'carol/engine', 'ada/engine'])
    await waitFor(() => expect((screen.getByLabelText('Compare branch (merge from)') as HTMLSelectElement).value).toBe('fresh'))
    expect((screen.getByLabelText('Base repository') as HTMLSelectElement).value).toBe('bob/engine')
    await waitFor(() => expect(api.sent('GET', `${BOB}/compare/main...ada%3Afresh`)).toHaveLength(1))
    expect(new URLSearchParams(window.location.search).get('head')).toBe('ada:fresh')
    expect(new URLSearchParams(window.location.search).get('base')).toBe('main')
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Fresh' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create pull request' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/bob/engine/pulls/3'))
    expect(api.sent('POST', `${BOB}/pulls`)[0].body).toEqual({ head: 'ada:fresh', base: 'main', title: 'Fresh', body: '' })
  })

  it('takes the head from the URL, and lists the branches of the head repository chosen', async () => {
    const api = forkApi()
    signIn()
    renderScreen(<NewPullScreen />, '/bob/engine/pulls/new?base=main&head=carol:fix')
    const headRepo = (await screen.findByLabelText('Head repository')) as HTMLSelectElement
    expect(headRepo.value).toBe('9')
    await waitFor(() => expect(api.sent('GET', `${BOB}/compare/main...carol%3Afix`)).toHaveLength(1))
    fireEvent.change(headRepo, { target: { value: '7' } })
    const head = screen.getByLabelText('Compare branch (merge from)') as HTMLSelectElement
    await waitFor(() => expect(head.value).toBe('docs'))
    expect([...head.options].map((o) => o.value)).toEqual(['', 'main', 'docs'])
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('head')).toBe('docs'))
  })

  it('offers the repository a fork was forked from as the base', async () => {
    stubApi({
      [`GET ${REPO}`]: adas,
      [`GET ${REPO}/branches`]: [at('main', '2026-01-01T00:00:00Z'), at('fresh', '2026-01-05T00:00:00Z')],
      [`GET ${REPO}/forks`]: [],
      [`GET ${REPO}/compare/main...fresh`]: empty,
    })
    signIn()
    renderScreen(<NewPullScreen />, '/ada/engine/pulls/new')
    const baseRepo = (await screen.findByLabelText('Base repository')) as HTMLSelectElement
    expect([...baseRepo.options].map((o) => o.value)).toEqual(['ada/engine', 'bob/engine'])
    await waitFor(() => expect((screen.getByLabelText('Compare branch (merge from)') as HTMLSelectElement).value).toBe('fresh'))
    fireEvent.change(baseRepo, { target: { value: 'bob/engine' } })
    expect(go).toHaveBeenCalledWith('/bob/engine/pulls/new?base=main&head=ada%3Afresh')
  })
})
