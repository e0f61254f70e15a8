// "Compare & pull request": the banner a repository's home shows for the
// branches the signed-in user pushed lately.
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { ComparePrompt } from './ComparePrompt'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('repositories')

const BOB = '/api/v1/repos/bob/engine'
const bobs = repoFixture({ id: 7, owner: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), full_name: 'bob/engine' })
const adas = repoFixture({ id: 8, owner: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), full_name: 'ada/engine', fork: true, parent: schemaFixture('Repo', bobs) })
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()
const branch = (name: string, minutes: number, author = 'ada') => ({ name, commit: { id: `${name}-sha`, message: '', timestamp: minutesAgo(minutes), author: { name: author } } })

beforeEach(() => localStorage.clear())

describe('ComparePrompt', () => {
  it("on a fork, offers a pull request into its parent for the user's recent branch, and forgets it once dismissed", async () => {
    const api = stubApi({
      [`GET ${REPO}/branches`]: [branch('main', 1), branch('fresh', 5), branch('stale', 120), branch('pulled', 3)],
      [`GET ${BOB}/pulls`]: [schemaFixture('Pull', { head: schemaFixture('PrBranch', { ref: 'pulled', repo_id: 8 }) }), schemaFixture('Pull', { head: schemaFixture('PrBranch', { ref: 'fresh', repo_id: 7 }) })],
    })
    signIn()
    const view = renderScreen(<ComparePrompt repo={adas} />, '/ada/engine')
    const open = await screen.findByRole('link', { name: 'Compare & pull request' })
    expect(open.getAttribute('href')).toBe('/bob/engine/pulls/new?base=main&head=ada%3Afresh')
    expect(screen.getAllByRole('link', { name: 'Compare & pull request' })).toHaveLength(1)
    expect(screen.getByText(/^ada:fresh had recent pushes/)).toBeTruthy()
    expect(api.sent('GET', `${BOB}/pulls`)[0].url).toContain('state=open')
    expect(api.sent('GET', `${REPO}/forks`)).toHaveLength(0)

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByRole('link', { name: 'Compare & pull request' })).toBeNull()
    view.unmount()
    renderScreen(<ComparePrompt repo={adas} />, '/ada/engine')
    await waitFor(() => expect(api.sent('GET', `${BOB}/pulls`).length).toBeGreaterThan(0))
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('link', { name: 'Compare & pull request' })).toBeNull()
  })

  it("on the parent, offers the user's fork's recent branch, not another's branch of the parent", async () => {
    stubApi({
      [`GET ${BOB}/branches`]: [branch('main', 1, 'bob'), branch('docs', 2, 'bob')],
      [`GET ${BOB}/forks`]: [adas],
      [`GET ${REPO}/branches`]: [branch('main', 1), branch('fresh', 5)],
      [`GET ${BOB}/pulls`]: [],
    })
    signIn()
    renderScreen(<ComparePrompt repo={bobs} />, '/bob/engine')
    const open = await screen.findByRole('link', { name: 'Compare & pull request' })
    expect(open.getAttribute('href')).toBe('/bob/engine/pulls/new?base=main&head=ada%3Afresh')
    expect(screen.getAllByRole('link', { name: 'Compare & pull request' })).toHaveLength(1)
  })

  it('on the user\'s own repository, offers a branch of it into its default branch', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: [branch('main', 1), branch('mill', 10, 'Ada Lovelace')],
      [`GET ${REPO}/forks`]: [],
      [`GET ${REPO}/pulls`]: [],
    })
    signIn()
    renderScreen(<ComparePrompt repo={repoFixture()} />, '/ada/engine')
    const open = await screen.findByRole('link', { name: 'Compare & pull request' })
    expect(open.getAttribute('href')).toBe('/ada/engine/pulls/new?base=main&head=mill')
  })

  it('counts from the push the chain ordered, not the commit\'s time, and offers only the user\'s own pushes', async () => {
    const pushed = (b: ReturnType<typeof branch>, minutes: number, login: string) => ({
      ...b,
      pushed_at: minutesAgo(minutes),
      pusher: schemaFixture('ForgeUser', { login }),
    })
    stubApi({
      [`GET ${REPO}/branches`]: [
        branch('main', 1),
        // Written three days ago, pushed five minutes ago by ada.
        pushed(branch('rebased', 3 * 24 * 60), 5, 'ada'),
        // Ada's fresh commit, pushed by bob: his push, not hers.
        pushed(branch('borrowed', 2), 2, 'bob'),
        // Written a minute ago, but pushed (by ada) two hours ago: the clock of whoever committed ran ahead.
        pushed(branch('skewed', 1), 120, 'ada'),
      ],
      [`GET ${REPO}/forks`]: [],
      [`GET ${REPO}/pulls`]: [],
    })
    signIn()
    renderScreen(<ComparePrompt repo={repoFixture()} />, '/ada/engine')
    const open = await screen.findByRole('link', { name: 'Compare & pull request' })
    expect(open.getAttribute('href')).toBe('/ada/engine/pulls/new?base=main&head=rebased')
    expect(screen.getAllByRole('link', { name: 'Compare & pull request' })).toHaveLength(1)
    expect(screen.getByText('rebased had recent pushes 5 minutes ago.')).toBeTruthy()
  })

  it('asks for no pull requests when no branch was pushed lately', async () => {
    const api = stubApi({ [`GET ${REPO}/branches`]: [branch('main', 1), branch('stale', 120)] })
    signIn()
    renderScreen(<ComparePrompt repo={adas} />, '/ada/engine')
    await waitFor(() => expect(api.sent('GET', `${REPO}/branches`)).toHaveLength(1))
    await new Promise((r) => setTimeout(r, 50))
    expect(api.sent('GET', `${BOB}/pulls`)).toHaveLength(0)
    expect(screen.queryByRole('link', { name: 'Compare & pull request' })).toBeNull()
  })

  it('shows nothing to a signed-out visitor', async () => {
    const api = stubApi({})
    renderScreen(<ComparePrompt repo={adas} />, '/ada/engine')
    await new Promise((r) => setTimeout(r, 50))
    expect(api.calls).toHaveLength(0)
    expect(screen.queryByRole('link', { name: 'Compare & pull request' })).toBeNull()
  })
})
