import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { repoNameProblem } from '@/lib/forge/api'
import BranchesScreen from './BranchesScreen'
import CodeScreen from './CodeScreen'
import CommitScreen from './CommitScreen'
import CommitsScreen from './CommitsScreen'
import ContributorsScreen from './ContributorsScreen'
import ExploreScreen from './ExploreScreen'
import { canOwn, nav } from '@/lib/forge/nav'
import NewRepositoryScreen from './NewRepositoryScreen'
import RepoSettingsScreen from './RepoSettingsScreen'
import RepositoryScreen from './RepositoryScreen'
import TagsScreen from './TagsScreen'
import { codeCell, commitFixture, noContent, REPO, repoFixture, stubApi, text } from '@/test/forge'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('repositories', 'code', 'issues', 'wallet', 'website', 'actions')

let go: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => {
  go.mockRestore()
})

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)))

const COUNTS = { commits: 12, branches: 2, tags: 1, stars: 3, forks: 1, watchers: 2, open_issues: 4, open_pulls: 1 }
const TREE = [
  { name: 'main.go', path: 'main.go', sha: 'f1', type: 'file', size: 120 },
  { name: 'cmd', path: 'cmd', sha: 'd1', type: 'dir', size: 0 },
]

function homeApi(extra: Record<string, unknown> = {}) {
  return stubApi({
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${REPO}/counts`]: COUNTS,
    [`GET ${REPO}/contents`]: TREE,
    [`GET ${REPO}/readme`]: { path: 'README.md', html: '<h1>Engine</h1><p>Computes tables.</p>' },
    // The latest-commit bar's question; an empty history shows no bar.
    [`GET ${REPO}/commits`]: [],
    ...extra,
  })
}

describe('ExploreScreen', () => {
  it('searches the node and shows the honest empty state when it has no repositories', async () => {
    const api = stubApi({ 'GET /api/v1/repos/search': { ok: true, data: [] } })
    renderScreen(<ExploreScreen />, '/explore')
    expect(await screen.findByRole('heading', { level: 1, name: 'Explore' })).toBeTruthy()
    expect(await screen.findByText('No repositories yet. Create your first repository!')).toBeTruthy()
    const [call] = api.sent('GET', '/api/v1/repos/search')
    expect(Object.fromEntries(new URL(call.url, 'http://x').searchParams)).toEqual({ sort: 'updated', order: 'desc', page: '1', limit: '20' })
    expect(screen.getByRole('link', { name: 'New repository' }).getAttribute('href')).toBe('/new')
  })

  it('lists the repositories found, with stars, forks and a missing description', async () => {
    stubApi({
      'GET /api/v1/repos/search': { ok: true, data: [repoFixture(), repoFixture({ id: 8, name: 'loom', full_name: 'ada/loom', description: '', stars_count: 1 })] },
    })
    renderScreen(<ExploreScreen />, '/explore')
    const link = await screen.findByRole('link', { name: 'ada/engine' })
    expect(link.getAttribute('href')).toBe('/ada/engine')
    expect(screen.getByText('3 stars')).toBeTruthy()
    expect(screen.getByText('1 star')).toBeTruthy()
    expect(screen.getByText('No description provided')).toBeTruthy()
  })

  it('sends the typed query and the sort (name is Gitea\'s alpha) and keeps them in the URL', async () => {
    const api = stubApi({ 'GET /api/v1/repos/search': { ok: true, data: [] } })
    renderScreen(<ExploreScreen />, '/explore?sort=name')
    const input = await screen.findByLabelText('Search repositories')
    fireEvent.change(input, { target: { value: 'ledger' } })
    expect(new URLSearchParams(window.location.search).get('q')).toBe('ledger')
    expect(await screen.findByText('No repositories match “ledger”.')).toBeTruthy()
    // The empty-state text can render from the previous (query-less) answer before the
    // debounced search is sent, so wait for the request itself.
    await waitFor(() => {
      const last = new URL(api.sent('GET', '/api/v1/repos/search').at(-1)?.url ?? '', 'http://x').searchParams
      expect([last.get('q'), last.get('sort'), last.get('order')]).toEqual(['ledger', 'alpha', 'asc'])
    })
  })

  it('falls back to the default sort for an unknown ?sort=', async () => {
    stubApi({ 'GET /api/v1/repos/search': { ok: true, data: [] } })
    renderScreen(<ExploreScreen />, '/explore?sort=bogus')
    expect(((await screen.findByLabelText('Sort by')) as HTMLSelectElement).value).toBe('updated')
  })

  it('searches users by part of their name as you type, on the users tab', async () => {
    const ada = { id: 1, login: 'ada', full_name: 'Ada Lovelace', description: 'Poet of numbers', wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7' }
    const api = stubApi({ 'GET /api/v1/users/search': (_body: unknown, url: URL) => ({ ok: true, data: url.searchParams.get('q') === 'lace' ? [ada] : [] }) })
    renderScreen(<ExploreScreen />, '/explore?tab=users')
    expect(await screen.findByText('No users yet.')).toBeTruthy()
    const input = screen.getByLabelText('Search users')
    fireEvent.change(input, { target: { value: 'lace' } })
    expect(new URLSearchParams(window.location.search).get('q')).toBe('lace')
    expect((await screen.findByRole('link', { name: 'Ada Lovelace' })).getAttribute('href')).toBe('/user/ada')
    expect(within(screen.getByRole('list', { name: 'Users' })).getByText('Poet of numbers')).toBeTruthy()
    fireEvent.change(input, { target: { value: 'nobody' } })
    expect(await screen.findByText('No users match “nobody”.')).toBeTruthy()
    const last = new URL(api.sent('GET', '/api/v1/users/search').at(-1)?.url ?? '', 'http://x').searchParams
    expect(Object.fromEntries(last)).toEqual({ q: 'nobody', page: '1', limit: '20' })
  })

  it('starts the other tab at its first page', async () => {
    stubApi({ 'GET /api/v1/repos/search': { ok: true, data: [] }, 'GET /api/v1/users/search': { ok: true, data: [] } })
    renderScreen(<ExploreScreen />, '/explore?page=3')
    fireEvent.click(await screen.findByRole('tab', { name: 'Users' }))
    expect(new URLSearchParams(window.location.search).get('page')).toBeNull()
    expect(await screen.findByText('No users yet.')).toBeTruthy()
  })
})

describe('RepositoryScreen', () => {
  it('shows the description, clone URL, counts, tree and README', async () => {
    homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    expect(await screen.findByRole('heading', { level: 1, name: /ada\s*\/\s*engine/ })).toBeTruthy()
    expect(screen.getByText('An analytical engine')).toBeTruthy()
    expect((screen.getByLabelText('Clone over HTTP') as HTMLInputElement).value).toBe('http://localhost/ada/engine.git')
    const counts = await screen.findByRole('region', { name: 'Counts' })
    // The region shows while its counts load: wait for them.
    expect((await within(counts).findByRole('link', { name: 'Commits' })).getAttribute('href')).toBe('/ada/engine/commits')
    expect(within(counts).getByText('12')).toBeTruthy()
    expect(within(counts).getByText('Open pull requests')).toBeTruthy()
    expect((await screen.findByRole('link', { name: 'main.go' })).getAttribute('href')).toBe('/ada/engine/src/main.go')
    // Directories come first.
    const names = screen.getAllByRole('row').map((r) => r.textContent)
    expect(names.findIndex((n) => n?.includes('cmd'))).toBeLessThan(names.findIndex((n) => n?.includes('main.go')))
    expect(await screen.findByRole('heading', { name: 'Engine' })).toBeTruthy()
    expect(document.title).toBe('ada/engine: An analytical engine · dForge')
  })

  it("shows who signed the repository's creation in the header, naming the node from the registry the page's nodes panel loads, with no request of its own", async () => {
    const node = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const api = homeApi({
      [`GET ${REPO}`]: repoFixture({ signer: node, delegation: node }),
      'GET /api/v1/nodes': [{ operator: node.toLowerCase(), url: 'https://forge.example.org', peer_id: '', addrs: [], height: 0 }],
    })
    renderScreen(<RepositoryScreen />, '/ada/engine')
    // The home page lists the nodes that hold the repository: the badge reads the same query.
    expect(await screen.findByRole('button', { name: 'Signed via node forge.example.org' })).toBeTruthy()
    expect(await screen.findByRole('heading', { name: 'Engine' })).toBeTruthy()
    expect(api.sent('GET', '/api/v1/nodes')).toHaveLength(1)
  })

  it('shows no signer badge for a repository from before signers were kept', async () => {
    homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    expect(await screen.findByRole('heading', { level: 1, name: /ada\s*\/\s*engine/ })).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^Signed / })).toBeNull()
  })

  it('copies the clone URL', async () => {
    homeApi()
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    renderScreen(<RepositoryScreen />, '/ada/engine')
    fireEvent.click(await screen.findByRole('button', { name: 'Copy' }))
    expect(await screen.findByText('Copied to the clipboard.')).toBeTruthy()
    expect(writeText).toHaveBeenCalledWith('http://localhost/ada/engine.git')
  })

  it('links the website', async () => {
    homeApi({ [`GET ${REPO}`]: repoFixture({ website: 'https://engine.example/docs' }) })
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const link = await screen.findByRole('link', { name: 'Website: https://engine.example/docs' })
    expect(link.getAttribute('href')).toBe('https://engine.example/docs')
    expect(link.getAttribute('rel')).toContain('noopener')
  })

  it('reads "No description provided" and explains how to push to an empty repository', async () => {
    homeApi({ [`GET ${REPO}`]: repoFixture({ description: '', empty: true }) })
    renderScreen(<RepositoryScreen />, '/ada/engine')
    expect(await screen.findByText('No description provided')).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'This repository is empty' })).toBeTruthy()
    expect(screen.getByText(/git remote add origin http:\/\/localhost\/ada\/engine\.git/)).toBeTruthy()
  })

  it('stars and unstars for a signed-in user', async () => {
    let starred = false
    const api = homeApi({
      [`GET ${REPO}`]: () => repoFixture({ starred_by_me: starred, watched_by_me: true }),
      'PUT /api/v1/user/starred/ada/engine': () => {
        starred = true
        return noContent()
      },
      'DELETE /api/v1/user/starred/ada/engine': () => {
        starred = false
        return noContent()
      },
    })
    signIn()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const star = await screen.findByRole('button', { name: /^Star/ })
    await waitFor(() => expect((star as HTMLButtonElement).disabled).toBe(false))
    expect(star.getAttribute('aria-pressed')).toBe('false')
    fireEvent.click(star)
    await waitFor(() => expect(screen.getByRole('button', { name: /^Unstar/ }).getAttribute('aria-pressed')).toBe('true'))
    expect(api.sent('PUT', '/api/v1/user/starred/ada/engine')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: /^Unstar/ }))
    await waitFor(() => expect(api.sent('DELETE', '/api/v1/user/starred/ada/engine')).toHaveLength(1))
  })

  it('reads the star and the watch from the repository, making no request that answers 404', async () => {
    const statuses: { url: string; status: number }[] = []
    // Private: the node registry and replication cards ask nothing then.
    const api = homeApi({
      [`GET ${REPO}`]: repoFixture({ private: true, starred_by_me: true, watched_by_me: true }),
      [`GET ${REPO}/last_commits`]: { commit: 'a'.repeat(40), entries: [] },
      [`GET ${REPO}/branches`]: [],
    })
    const answer = api.fetchMock.getMockImplementation()!
    api.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await answer(input, init)
      statuses.push({ url: String(input), status: res.status })
      return res
    })
    signIn()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const unstar = await screen.findByRole('button', { name: /^Unstar/ })
    expect(unstar.getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByRole('button', { name: /^Unwatch/ }).getAttribute('aria-pressed')).toBe('true')
    await screen.findByRole('heading', { name: 'Engine' })
    expect(api.sent('GET', '/api/v1/user/starred/ada/engine')).toHaveLength(0)
    expect(api.sent('GET', `${REPO}/subscription`)).toHaveLength(0)
    expect(statuses.filter((s) => s.status === 404)).toEqual([])
  })

  it('forks and opens the fork', async () => {
    const api = homeApi({ [`POST ${REPO}/forks`]: repoFixture({ owner: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), full_name: 'bob/engine' }) })
    signIn()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    fireEvent.click(await screen.findByRole('button', { name: /^Fork/ }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/bob/engine'))
    expect(api.sent('POST', `${REPO}/forks`)).toHaveLength(1)
  })

  it('disables star, watch and fork for a visitor and says why', async () => {
    homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const watch = (await screen.findByRole('button', { name: /^Watch/ })) as HTMLButtonElement
    expect(watch.disabled).toBe(true)
    expect(document.getElementById(watch.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Sign in with your wallet to star, watch or fork.')
  })

  it('says a missing (or hidden private) repository is not found', async () => {
    stubApi({})
    renderScreen(<RepositoryScreen />, '/ada/nothing')
    expect(await screen.findByRole('heading', { level: 1, name: 'Repository not found' })).toBeTruthy()
    expect(screen.getByText(/There is no repository “ada\/nothing” on this node/)).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('Repository not found · dForge'))
  })

  it('answers /repository/:id with the repository and its canonical URL', async () => {
    homeApi({ 'GET /api/v1/repositories/7': repoFixture() })
    renderScreen(<RepositoryScreen />, '/repository/7')
    expect(await screen.findByRole('heading', { level: 1, name: /ada\s*\/\s*engine/ })).toBeTruthy()
    await waitFor(() => expect(window.location.pathname).toBe('/ada/engine'))
  })

  it('does not ask the server for a non-numeric /repository/:id', async () => {
    const api = stubApi({})
    renderScreen(<RepositoryScreen />, '/repository/dforge')
    expect(await screen.findByRole('heading', { level: 1, name: 'Repository not found' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to Explore' }).getAttribute('href')).toBe('/explore')
    expect(api.fetchMock).not.toHaveBeenCalled()
  })

  // As the server's page matcher: only what could be a username owns a repository page.
  it.each(['/explore/extra', '/index.html/x', '/-bad-/proj', '/a..b/proj'])('treats %s as a missing page', async (path) => {
    const api = stubApi({})
    renderScreen(<RepositoryScreen />, path)
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy()
    expect(api.fetchMock).not.toHaveBeenCalled()
  })

  it.each([['user-0123456789ab'], ['roadmap'], ['a.b-c_d']])('lets %s own repositories', (owner) => {
    expect(canOwn(owner)).toBe(true)
  })
})

describe('CodeScreen', () => {
  const branches = [{ name: 'main', commit: { id: 'a'.repeat(40), message: 'init' } }, { name: 'dev', commit: { id: 'b'.repeat(40), message: 'wip' } }]

  it('shows a file at a ref with line numbers, raw and download links, and highlights it lazily', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: branches,
      [`GET ${REPO}/tags`]: [{ name: 'v1', id: 't', commit: { sha: 'c'.repeat(40) } }],
      [`GET ${REPO}/contents/cmd/main.go`]: { name: 'main.go', path: 'cmd/main.go', sha: 'f1', type: 'file', size: 40, encoding: 'base64', content: b64('package main\n\nfunc main() {}\n') },
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd/main.go?ref=dev')
    // The code is one text node until highlighting splits it into spans: read the whole block.
    await waitFor(() => expect(document.querySelector('.code-body code')?.textContent).toBe('package main\n\nfunc main() {}\n'))
    expect(api.sent('GET', `${REPO}/contents/cmd/main.go`)[0].url).toContain('ref=dev')
    expect(document.querySelector('.code-gutter')?.textContent).toBe('1\n2\n3')
    expect(screen.getByRole('link', { name: 'Raw' }).getAttribute('href')).toBe(`${REPO}/raw/cmd/main.go?ref=dev`)
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('main.go')
    await waitFor(() => expect(document.querySelector('code.hljs .hljs-keyword')?.textContent).toBe('package'))
    // The ref selector names the ref shown, and its tags lead to the same file at the tag.
    fireEvent.click(screen.getByRole('button', { name: /Branch\s+dev/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Tags' }))
    expect((await screen.findByRole('link', { name: 'v1' })).getAttribute('href')).toBe('/ada/engine/src/cmd/main.go?ref=v1')
    // Breadcrumbs lead back up the tree, keeping the ref.
    expect(screen.getByRole('link', { name: 'cmd' }).getAttribute('href')).toBe('/ada/engine/src/cmd?ref=dev')
  })

  it('says a binary file is not shown', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: branches,
      [`GET ${REPO}/contents/blob.bin`]: { name: 'blob.bin', path: 'blob.bin', sha: 'b', type: 'file', size: 4, encoding: 'base64', content: btoa('\x00\x01\x02\x03') },
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/blob.bin')
    expect(await screen.findByText('This is a binary file, so it is not shown. Download it or open it raw.')).toBeTruthy()
  })

  it('does not fetch a very large file and offers the download instead', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: branches,
      [`GET ${REPO}/contents/big.sql`]: { name: 'big.sql', path: 'big.sql', sha: 'g', type: 'file', size: 50 * 1024 * 1024, content: null },
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/big.sql')
    expect(await screen.findByText(/This file is 50 MiB, more than the 1 MiB shown here/)).toBeTruthy()
    expect(api.sent('GET', `${REPO}/raw/big.sql`)).toHaveLength(0)
  })

  it('reads the file from the raw endpoint when the contents answer has no content', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: branches,
      [`GET ${REPO}/contents/notes.txt`]: { name: 'notes.txt', path: 'notes.txt', sha: 'n', type: 'file', size: 11, content: null },
      [`GET ${REPO}/raw/notes.txt`]: text('hello notes'),
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/notes.txt')
    expect(await screen.findByText('hello notes')).toBeTruthy()
  })

  it('lists a directory with a link to its parent, and says when a path does not exist', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: branches,
      [`GET ${REPO}/contents/cmd`]: [{ name: 'main.go', path: 'cmd/main.go', sha: 'f', type: 'file', size: 9 }],
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd')
    expect((await screen.findByRole('link', { name: 'Parent directory' })).getAttribute('href')).toBe('/ada/engine/src')
    expect(screen.getByRole('link', { name: 'main.go' }).getAttribute('href')).toBe('/ada/engine/src/cmd/main.go')
  })

  it('says when a path does not exist at the ref', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/branches`]: branches })
    renderScreen(<CodeScreen />, '/ada/engine/src/nope')
    expect(await screen.findByText('There is no “nope” at main.')).toBeTruthy()
  })
})

const COMMIT = commitFixture(
  'abcdef0123456789abcdef0123456789abcdef01',
  'Add the mill\n\nIt turns.',
  { name: 'Ada', email: 'ada@example.org', date: '2026-01-01T00:00:00Z' },
  {
    author: schemaFixture('ForgeUser', { id: 1, login: 'ada' }),
    parents: [schemaFixture('CommitMeta', { sha: '1111111222222233333334444444555555566666' })],
    files: [schemaFixture('CommitFile', { filename: 'mill.go', status: 'added' })],
    cid: 'bafkrabc',
  },
)

describe('CommitsScreen', () => {
  it('lists commits with authors and the paths they change, a page at a time', async () => {
    const api = stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/branches`]: [], [`GET ${REPO}/commits`]: [COMMIT, { ...COMMIT, sha: 'f'.repeat(40), author: null, commit: { ...COMMIT.commit, message: 'By a stranger', author: { ...COMMIT.commit.author, name: 'Someone' } } }] })
    renderScreen(<CommitsScreen />, '/ada/engine/commits?path=mill.go')
    expect((await screen.findByRole('link', { name: 'Add the mill' })).getAttribute('href')).toBe(`/ada/engine/commit/${COMMIT.sha}`)
    const list = screen.getByRole('list', { name: 'Commits' })
    expect(within(list).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user/ada')
    expect(within(list).getByText('Someone')).toBeTruthy()
    expect(screen.getAllByText('mill.go').length).toBeGreaterThan(0)
    const params = new URL(api.sent('GET', `${REPO}/commits`)[0].url, 'http://x').searchParams
    expect([params.get('sha'), params.get('path'), params.get('page'), params.get('limit')]).toEqual(['main', 'mill.go', '1', '30'])
  })

  it('says when there are no commits', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/branches`]: [], [`GET ${REPO}/commits`]: [] })
    renderScreen(<CommitsScreen />, '/ada/engine/commits')
    expect(await screen.findByText('No commits yet.')).toBeTruthy()
  })
})

describe('CommitScreen', () => {
  it('shows the message, parents, IPFS CID link and the diff', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/git/commits/${COMMIT.sha}`]: COMMIT,
      [`GET ${REPO}/git/commits/${COMMIT.sha}.diff`]: text('diff --git a/mill.go b/mill.go\nnew file mode 100644\n--- /dev/null\n+++ b/mill.go\n@@ -0,0 +1 @@\n+package mill\n'),
    })
    renderScreen(<CommitScreen />, `/ada/engine/commit/${COMMIT.sha}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Add the mill' })).toBeTruthy()
    expect(screen.getByText('It turns.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'bafkrabc' }).getAttribute('href')).toBe('/ipfs/bafkrabc?format=raw')
    expect(screen.getByRole('link', { name: '1111111' }).getAttribute('href')).toBe('/ada/engine/commit/1111111222222233333334444444555555566666')
    expect(await screen.findByText(codeCell('package mill'))).toBeTruthy()
    expect(screen.getByText('1 file changed, 1 additions, 0 deletions')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Split' }))
    expect(new URLSearchParams(window.location.search).get('diff')).toBe('split')
    // Highlighting splits the line into spans: find its cell by its whole text.
    await waitFor(() => expect(document.querySelector('.diff-split .hljs-keyword')?.textContent).toBe('package'))
    expect(document.querySelector('.diff-split .hljs-keyword')?.closest('td')?.className).toContain('diff-add')
  })
})

describe('branches and tags', () => {
  it('marks the default branch and links each branch to its tree', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/branches`]: [{ name: 'main', protected: true, commit: { id: 'a'.repeat(40), message: 'init' } }, { name: 'dev', commit: { id: 'b'.repeat(40), message: 'wip' } }] })
    renderScreen(<BranchesScreen />, '/ada/engine/branches')
    expect((await screen.findByRole('link', { name: 'dev' })).getAttribute('href')).toBe('/ada/engine/src?ref=dev')
    expect(screen.getByText('default')).toBeTruthy()
    expect(screen.getByText('protected')).toBeTruthy()
  })

  it('shows when each tag was made, relative, with the exact date in its title, and who tagged an annotated one', async () => {
    const day = 86400000
    const created = new Date(Date.now() - 3 * day).toISOString()
    const tagged = new Date(Date.now() - 2 * day).toISOString()
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/tags`]: [
        schemaFixture('Tag', { name: 'v1', id: 't'.repeat(40), message: 'First', commit: { sha: 'c'.repeat(40), url: '', cid: '', created }, tagger: schemaFixture('TagTagger', { name: 'Ada', email: 'ada@example.org', date: tagged }) }),
        schemaFixture('Tag', { name: 'v2', id: 'd'.repeat(40), commit: { sha: 'd'.repeat(40), url: '', cid: '', created: '' } }),
      ],
    })
    renderScreen(<TagsScreen />, '/ada/engine/tags')
    const when = await screen.findByText('3 days ago')
    expect(when.tagName).toBe('TIME')
    expect(when.getAttribute('dateTime')).toBe(created)
    expect(when.getAttribute('title')).toBe(new Date(created).toLocaleString('en', { dateStyle: 'long', timeStyle: 'short' }))
    expect(screen.getByText('Tagged 2 days ago by Ada').getAttribute('title')).toBe(new Date(tagged).toLocaleString('en', { dateStyle: 'long', timeStyle: 'short' }))
    const v2 = screen.getByRole('link', { name: 'v2' }).closest('tr')
    expect(v2?.textContent).toContain('—')
  })

  it('says when there are no tags', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/tags`]: [] })
    renderScreen(<TagsScreen />, '/ada/engine/tags')
    expect(await screen.findByText('No tags yet.')).toBeTruthy()
  })

  it('shows a tag of something other than a commit without a commit link', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/tags`]: [schemaFixture('Tag', { name: 'tree-tag', id: 'e'.repeat(40) })] })
    renderScreen(<TagsScreen />, '/ada/engine/tags')
    const row = (await screen.findByRole('link', { name: 'tree-tag' })).closest('tr') as HTMLElement
    expect(within(row).queryAllByRole('link')).toHaveLength(1)
    expect(row.textContent).toContain('—')
  })
})

describe('ContributorsScreen', () => {
  it('ranks contributors by their commits, linking those an account claims', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/contributors`]: [
        schemaFixture('Contributor', { name: 'Someone', email: 'someone@example.org', commits: 2 }),
        schemaFixture('Contributor', { name: 'Ada Lovelace', email: 'ada@example.org', commits: 12, login: 'ada' }),
      ],
    })
    renderScreen(<ContributorsScreen />, '/ada/engine/contributors')
    const table = await screen.findByRole('table', { name: 'Contributors' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => r.textContent)).toEqual(['ada12', 'Someone2'])
    expect(within(rows[0]).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user/ada')
    expect(within(rows[1]).queryByRole('link')).toBeNull()
  })
})

describe('NewRepositoryScreen', () => {
  it('asks a visitor to sign in', async () => {
    renderScreen(<NewRepositoryScreen />, '/new')
    expect(await screen.findByText('Sign in with your wallet to create a repository.')).toBeTruthy()
  })

  it('checks the name by Gitea\'s rules before sending anything', async () => {
    const api = stubApi({})
    signIn()
    renderScreen(<NewRepositoryScreen />, '/new')
    const name = await screen.findByLabelText('Repository name')
    fireEvent.change(name, { target: { value: 'my repo' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create repository' }))
    expect(await screen.findByText('Use only letters, digits, “-”, “_” and “.”.')).toBeTruthy()
    expect(name.getAttribute('aria-invalid')).toBe('true')
    expect(api.fetchMock).not.toHaveBeenCalled()
  })

  it('creates a private repository with a README and opens it', async () => {
    const api = stubApi({ 'POST /api/v1/user/repos': repoFixture({ name: 'loom', full_name: 'ada/loom', private: true }) })
    signIn()
    renderScreen(<NewRepositoryScreen />, '/new')
    fireEvent.change(await screen.findByLabelText('Repository name'), { target: { value: 'loom' } })
    fireEvent.change(screen.getByLabelText('Description (optional)'), { target: { value: 'Weaves' } })
    fireEvent.click(screen.getByRole('radio', { name: /Private/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Create repository' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/loom'))
    expect(api.sent('POST', '/api/v1/user/repos')[0].body).toEqual({ name: 'loom', description: 'Weaves', private: true, auto_init: true, default_branch: 'main' })
  })

  it('shows the server\'s reason when creation fails', async () => {
    stubApi({ 'POST /api/v1/user/repos': () => new Response(JSON.stringify({ message: 'repository ada/loom already exists', code: 'conflict' }), { status: 409 }) })
    signIn()
    renderScreen(<NewRepositoryScreen />, '/new')
    fireEvent.change(await screen.findByLabelText('Repository name'), { target: { value: 'loom' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create repository' }))
    expect((await screen.findByRole('alert')).textContent).toBe('repository ada/loom already exists')
  })
})

describe('repository name rules', () => {
  it.each([
    ['', 'create.errors.nameRequired'],
    ['a'.repeat(101), 'create.errors.nameTooLong'],
    ['with space', 'create.errors.nameChars'],
    ['..', 'create.errors.nameReserved'],
    ['site.git', 'create.errors.nameSuffix'],
    ['Wiki.WIKI', 'create.errors.nameSuffix'],
    ['HEAD', 'create.errors.nameReserved'],
    ['Api', 'create.errors.nameReserved'],
    ['a..b', 'create.errors.nameDots'],
    ['-lead', 'create.errors.nameDash'],
    ['CON', 'create.errors.nameDevice'],
    ['nul.txt', 'create.errors.nameDevice'],
    ['lpt9', 'create.errors.nameDevice'],
    ['good-name_1.0', null],
    ['.profile', null],
    ['console', null],
    ['heads', null],
    ['lead-', null],
  ])('%j -> %s', (name, problem) => {
    expect(repoNameProblem(name)).toBe(problem)
  })
})

describe('RepoSettingsScreen', () => {
  const owned = repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) })

  it('deletes only once the name is typed, then leaves for Explore', async () => {
    const api = stubApi({ [`GET ${REPO}`]: owned, [`GET ${REPO}/collaborators`]: [], [`DELETE ${REPO}`]: noContent() })
    signIn()
    renderScreen(<RepoSettingsScreen />, '/ada/engine/settings')
    const del = (await screen.findByRole('button', { name: 'Delete this repository' })) as HTMLButtonElement
    expect(del.disabled).toBe(true)
    fireEvent.change(screen.getByLabelText('Type “engine” to confirm'), { target: { value: 'engin' } })
    expect(del.disabled).toBe(true)
    fireEvent.change(screen.getByLabelText('Type “engine” to confirm'), { target: { value: 'engine' } })
    fireEvent.click(del)
    await waitFor(() => expect(go).toHaveBeenCalledWith('/explore'))
    expect(api.sent('DELETE', REPO)).toHaveLength(1)
  })

  it('saves the website with the description', async () => {
    const api = stubApi({ [`GET ${REPO}`]: owned, [`GET ${REPO}/collaborators`]: [], [`PATCH ${REPO}`]: { ...owned, website: 'https://engine.example' } })
    signIn()
    renderScreen(<RepoSettingsScreen />, '/ada/engine/settings')
    fireEvent.change(await screen.findByLabelText('Website'), { target: { value: ' https://engine.example ' } })
    fireEvent.click(screen.getAllByRole('button', { name: 'Save' })[0]!)
    await waitFor(() => expect(api.sent('PATCH', REPO)[0]?.body).toEqual({ description: owned.description, website: 'https://engine.example' }))
  })

  it('adds and removes collaborators with a permission', async () => {
    const api = stubApi({ [`GET ${REPO}`]: owned, [`GET ${REPO}/collaborators`]: [{ id: 2, login: 'bob' }], [`PUT ${REPO}/collaborators/carol`]: noContent(), [`DELETE ${REPO}/collaborators/bob`]: noContent() })
    signIn()
    renderScreen(<RepoSettingsScreen />, '/ada/engine/settings')
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'carol' } })
    fireEvent.change(screen.getByLabelText('Permission'), { target: { value: 'maintain' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add collaborator' }))
    await waitFor(() => expect(api.sent('PUT', `${REPO}/collaborators/carol`)[0]?.body).toEqual({ permission: 'maintain' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Remove bob' }))
    await waitFor(() => expect(api.sent('DELETE', `${REPO}/collaborators/bob`)).toHaveLength(1))
  })

  it('shows the owner the Actions settings (runners, secrets, variables) and a maintainer none', async () => {
    const actions = `${REPO}/actions`
    const api = stubApi({
      [`GET ${REPO}`]: owned,
      [`GET ${REPO}/collaborators`]: [],
      [`GET ${actions}/runners`]: { runners: [], total_count: 0 },
      [`GET ${actions}/secrets`]: [],
      [`GET ${actions}/variables`]: [],
    })
    signIn()
    const view = renderScreen(<RepoSettingsScreen />, '/ada/engine/settings')
    const section = (await screen.findByRole('heading', { name: 'Actions', level: 2 })).closest('section')!
    expect(await within(section).findByText('No runner is registered to this repository.')).toBeTruthy()
    expect(within(section).getByRole('heading', { name: 'Secrets' })).toBeTruthy()
    expect(within(section).getByRole('heading', { name: 'Variables' })).toBeTruthy()
    view.unmount()

    const maintained = repoFixture({ owner: schemaFixture('ForgeUser', { id: 9, login: 'zed' }), full_name: 'zed/engine', permissions: schemaFixture('Perm', { maintain: true, push: true, pull: true }) })
    expect(api.sent('GET', `${actions}/runners`)).toHaveLength(1)
    const second = stubApi({ 'GET /api/v1/repos/zed/engine': maintained, 'GET /api/v1/repos/zed/engine/collaborators': [] })
    renderScreen(<RepoSettingsScreen />, '/zed/engine/settings')
    await screen.findByRole('heading', { name: 'Settings' })
    expect(screen.queryByRole('heading', { name: 'Actions', level: 2 })).toBeNull()
    expect(screen.getByRole('heading', { name: 'Labels' })).toBeTruthy()
    expect(second.calls.some((c) => c.url.includes('/actions/'))).toBe(false)
  })

  it('tells someone who is neither owner nor maintainer that they cannot change settings', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture({ owner: schemaFixture('ForgeUser', { id: 9, login: 'zed' }), full_name: 'zed/engine' }), 'GET /api/v1/repos/zed/engine': repoFixture({ owner: schemaFixture('ForgeUser', { id: 9, login: 'zed' }) }) })
    signIn()
    renderScreen(<RepoSettingsScreen />, '/zed/engine/settings')
    expect(await screen.findByText('Only the owner and maintainers can change this repository\'s settings.')).toBeTruthy()
  })
})
