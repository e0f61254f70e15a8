// The repository home's first-minute tools: the latest-commit bar, "Go to
// file", the keyboard shortcuts, the clone box and the file-type icons.
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Input } from '@/components/Input'
import { nav } from '@/lib/forge/nav'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { commitFixture, REPO, repoFixture, stubApi } from '@/test/forge'
import { schemaFixture } from '@/test/schemaFixture'
import CodeScreen from './CodeScreen'
import RepositoryScreen from './RepositoryScreen'
import { RepoShortcuts } from './RepoShortcuts'
import { isTypingTarget, SEQUENCE_MS } from './shortcuts'

preloadNamespaces('repositories', 'code', 'sshkeys', 'website')

// The home loads several lazy chunks: on a busy machine its first paint can take over a second.
beforeAll(() => configure({ asyncUtilTimeout: 5000 }))
afterAll(() => configure({ asyncUtilTimeout: 1000 }))

let go: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => {
  go.mockRestore()
})

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
const COMMIT = commitFixture(
  SHA,
  'Teach the engine to divide\n\nLong division, with carries.',
  { name: 'Ada Lovelace', email: 'ada@example.org', date: '2026-01-01T10:00:00Z' },
  { author: schemaFixture('ForgeUser', { id: 1, login: 'ada', avatar_url: 'http://localhost/avatars/ada.png' }) },
)
const TREE = [
  { name: 'main.go', path: 'main.go', sha: 'f1', type: 'file', size: 120 },
  { name: 'cmd', path: 'cmd', sha: 'd1', type: 'dir', size: 0 },
  { name: 'logo.png', path: 'logo.png', sha: 'f2', type: 'file', size: 900 },
  { name: 'vendor', path: 'vendor', sha: 's1', type: 'submodule', size: 0 },
  { name: 'latest', path: 'latest', sha: 'l1', type: 'symlink', size: 6 },
]
const PATHS = ['README.md', 'cmd/engine/main.go', 'internal/mill/divide.go', 'internal/mill/multiply.go', 'web/src/RepoLayout.tsx']
const gitTree = (paths: string[], truncated = false) => ({
  sha: 'tree',
  truncated,
  tree: [{ path: 'internal', type: 'tree' }, ...paths.map((path) => ({ path, type: 'blob', mode: '100644', size: 1 }))],
})

/** The commits list as the server sends it, with the total in X-Total-Count (a fresh Response per request). */
const commitsAnswer = (total: number) => () => new Response(JSON.stringify([COMMIT]), { headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) } })

function homeApi(extra: Record<string, unknown> = {}) {
  return stubApi({
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${REPO}/counts`]: { commits: 42 },
    [`GET ${REPO}/contents`]: TREE,
    [`GET ${REPO}/readme`]: null,
    [`GET ${REPO}/commits`]: commitsAnswer(42),
    [`GET ${REPO}/git/trees/main`]: gitTree(PATHS),
    ...extra,
  })
}

const key = (k: string, init: KeyboardEventInit = {}, target: Element = document.body) => act(() => void fireEvent.keyDown(target, { key: k, ...init }))

describe('the latest-commit bar', () => {
  it('shows the newest commit of the default branch and how many commits lead there', async () => {
    const api = homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const bar = await screen.findByRole('region', { name: 'Latest commit' })
    expect(within(bar).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user/ada')
    expect(bar.querySelector('img.avatar-sm')?.getAttribute('src')).toBe('http://localhost/avatars/ada.png')
    const subject = within(bar).getByRole('link', { name: 'Teach the engine to divide' })
    expect(subject.getAttribute('href')).toBe(`/ada/engine/commit/${SHA}`)
    expect(within(bar).getByRole('link', { name: 'Commit a1b2c3d' }).textContent).toBe('a1b2c3d')
    expect(bar.querySelector('time')?.getAttribute('dateTime')).toBe('2026-01-01T10:00:00Z')
    expect(within(bar).getByRole('link', { name: '42 commits' }).getAttribute('href')).toBe('/ada/engine/commits')
    const [call] = api.sent('GET', `${REPO}/commits`)
    const q = new URL(call.url, 'http://x').searchParams
    expect([q.get('sha'), q.get('limit'), q.get('files')]).toEqual(['main', '1', 'false'])
  })

  it('shows the newest commit touching a directory at a ref, linking to that history', async () => {
    const api = homeApi({ [`GET ${REPO}/contents/cmd`]: [], [`GET ${REPO}/commits`]: commitsAnswer(1) })
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd?ref=dev')
    const bar = await screen.findByRole('region', { name: 'Latest commit' })
    expect(within(bar).getByRole('link', { name: '1 commit' }).getAttribute('href')).toBe('/ada/engine/commits?ref=dev&path=cmd')
    const q = new URL(api.sent('GET', `${REPO}/commits`)[0].url, 'http://x').searchParams
    expect([q.get('sha'), q.get('path')]).toEqual(['dev', 'cmd'])
  })

  it('initials stand in for an author without an avatar', async () => {
    homeApi({ [`GET ${REPO}/commits`]: [{ ...COMMIT, author: null }] })
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const bar = await screen.findByRole('region', { name: 'Latest commit' })
    expect(within(bar).getByText('Ada Lovelace')).toBeTruthy()
    expect(bar.querySelector('.avatar-initial')?.textContent).toBe('A')
  })
})

describe('file icons', () => {
  it('draws each kind of entry as an SVG icon, never an emoji', async () => {
    homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    await screen.findByRole('link', { name: 'main.go' })
    const table = document.querySelector('.file-tree') as HTMLElement
    expect(table.textContent).not.toMatch(/\p{Extended_Pictographic}/u)
    const iconOf = (name: string) => within(table).getByRole('link', { name }).closest('td')?.querySelector('svg')?.getAttribute('class')
    expect(iconOf('cmd')).toContain('file-icon-dir')
    expect(iconOf('vendor')).toContain('file-icon-submodule')
    expect(iconOf('latest')).toContain('file-icon-symlink')
    expect(iconOf('main.go')).toContain('file-icon-code')
    expect(iconOf('logo.png')).toContain('file-icon-image')
    for (const svg of table.querySelectorAll('svg')) expect(svg.getAttribute('aria-hidden')).toBe('true')
  })
})

describe('Go to file', () => {
  async function openHome() {
    const api = homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    await screen.findByRole('link', { name: 'main.go' })
    return api
  }

  it('opens on "t", filters fuzzily with the matches highlighted, moves with the arrows and opens with Enter', async () => {
    const api = await openHome()
    key('t')
    const dialog = await screen.findByRole('dialog', { name: 'Go to file' })
    const input = within(dialog).getByRole('combobox', { name: 'Find a file on main' })
    expect(document.activeElement).toBe(input)
    expect(await within(dialog).findByText('5 files.')).toBeTruthy()
    const q = new URL(api.sent('GET', `${REPO}/git/trees/main`)[0].url, 'http://x').searchParams
    expect(q.get('recursive')).toBe('true')

    fireEvent.change(input, { target: { value: 'mil' } })
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(2))
    const options = within(dialog).getAllByRole('option')
    expect(options.map((o) => o.textContent)).toEqual(['internal/mill/divide.go', 'internal/mill/multiply.go'])
    expect([...options[0].querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['mil'])
    expect(options[0].getAttribute('aria-selected')).toBe('true')
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0].id)
    expect(within(dialog).getByRole('status').textContent).toContain('2 files match.')

    fireEvent.keyDown(input, { key: 'ArrowDown' })
    expect(options[1].getAttribute('aria-selected')).toBe('true')
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1].id)
    fireEvent.keyDown(input, { key: 'ArrowDown' }) // stays on the last
    expect(options[1].getAttribute('aria-selected')).toBe('true')
    fireEvent.keyDown(input, { key: 'ArrowUp' })
    fireEvent.keyDown(input, { key: 'ArrowDown' })
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(go).toHaveBeenCalledWith('/ada/engine/src/internal/mill/multiply.go')
  })

  it('ranks the file name first and says when nothing matches', async () => {
    await openHome()
    fireEvent.click(screen.getByRole('button', { name: 'Go to file' }))
    const dialog = await screen.findByRole('dialog', { name: 'Go to file' })
    const input = within(dialog).getByRole('combobox')
    await within(dialog).findByText('5 files.')
    fireEvent.change(input, { target: { value: 'rl' } })
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0].textContent).toBe('web/src/RepoLayout.tsx'))
    fireEvent.change(input, { target: { value: 'zzz' } })
    expect(await within(dialog).findByText('No file matches “zzz”.')).toBeTruthy()
    expect(within(dialog).queryAllByRole('option')).toHaveLength(0)
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(go).not.toHaveBeenCalled()
  })

  it('closes on Escape and gives focus back to what opened it', async () => {
    await openHome()
    const button = screen.getByRole('button', { name: 'Go to file' })
    expect(button.getAttribute('aria-keyshortcuts')).toBe('t')
    button.focus()
    fireEvent.click(button)
    const dialog = await screen.findByRole('dialog', { name: 'Go to file' })
    fireEvent.keyDown(within(dialog).getByRole('combobox'), { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('opens a file by clicking it, at the ref the code view shows', async () => {
    homeApi({ [`GET ${REPO}/contents/cmd`]: [], [`GET ${REPO}/git/trees/dev`]: gitTree(['cmd/engine/main.go']) })
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd?ref=dev')
    fireEvent.click(await screen.findByRole('button', { name: 'Go to file' }))
    const option = await screen.findByRole('option', { name: 'cmd/engine/main.go' })
    fireEvent.click(option)
    expect(go).toHaveBeenCalledWith('/ada/engine/src/cmd/engine/main.go?ref=dev')
  })

  it('reads every page of a large tree', async () => {
    await openHome()
    stubApi({
      [`GET ${REPO}/git/trees/main`]: (_b: unknown, url: URL) => (url.searchParams.get('page') === '1' ? gitTree(['a.go'], true) : gitTree(['b.go'])),
    })
    key('t')
    const dialog = await screen.findByRole('dialog', { name: 'Go to file' })
    expect(await within(dialog).findByText('2 files.')).toBeTruthy()
    expect(within(dialog).getAllByRole('option').map((o) => o.textContent)).toEqual(['a.go', 'b.go'])
  })

  it('stops reading a huge tree at its cap, and says so', async () => {
    await openHome()
    const page = Array.from({ length: 10_000 }, (_, i) => `f${i}.go`)
    const api = stubApi({ [`GET ${REPO}/git/trees/main`]: () => ({ sha: 'tree', truncated: true, tree: page.map((path) => ({ path, type: 'blob' })) }) })
    key('t')
    const dialog = await screen.findByRole('dialog', { name: 'Go to file' })
    await within(dialog).findByText(/only its first 50000 entries are searched/)
    expect(api.sent('GET', `${REPO}/git/trees/main`)).toHaveLength(5)
    expect(within(dialog).getAllByRole('option')).toHaveLength(50)
  })

  it('says when the list of files cannot be loaded', async () => {
    await openHome()
    stubApi({ [`GET ${REPO}/git/trees/main`]: () => new Response('{"message":"not found","code":"not_found"}', { status: 404 }) })
    key('t')
    expect(await screen.findByText('The list of files could not be loaded.')).toBeTruthy()
  })
})

describe('keyboard shortcuts', () => {
  it('go to the issues, pull requests and code with g then i, p or c', async () => {
    homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    await screen.findByRole('link', { name: 'main.go' })
    key('g')
    key('i')
    expect(go).toHaveBeenLastCalledWith('/ada/engine/issues')
    key('g')
    key('p')
    expect(go).toHaveBeenLastCalledWith('/ada/engine/pulls')
    key('g')
    key('c')
    expect(go).toHaveBeenLastCalledWith('/ada/engine')
    // "i" alone, or too long after "g", does nothing.
    go.mockClear()
    key('i')
    const now = vi.spyOn(Date, 'now')
    now.mockReturnValue(1_000_000)
    key('g')
    now.mockReturnValue(1_000_000 + SEQUENCE_MS + 1)
    key('i')
    now.mockRestore()
    expect(go).not.toHaveBeenCalled()
  })

  it('lists every shortcut on "?"', async () => {
    homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    await screen.findByRole('link', { name: 'main.go' })
    key('?', { shiftKey: true })
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })
    const terms = [...dialog.querySelectorAll('dt')].map((d) => d.textContent)
    expect(terms).toEqual(['/', 't', 'g then c', 'g then i', 'g then p', '?'])
    expect(within(dialog).getByText('Go to the pull requests')).toBeTruthy()
    // Behind the open dialog, shortcuts rest.
    key('t')
    expect(screen.queryByRole('dialog', { name: 'Go to file' })).toBeNull()
  })

  it('never fire while typing in a field or editable content, or with Ctrl, Alt or Meta', async () => {
    homeApi()
    renderScreen(<RepositoryScreen />, '/ada/engine')
    await screen.findByRole('link', { name: 'main.go' })
    const field = screen.getByLabelText('Clone over HTTP')
    const editable = document.createElement('div')
    editable.setAttribute('contenteditable', 'true')
    editable.append(document.createElement('span'))
    document.body.append(editable)
    key('t', {}, field)
    key('t', {}, editable.firstElementChild as Element)
    key('t', { ctrlKey: true })
    key('t', { metaKey: true })
    key('t', { altKey: true })
    key('g', {}, field)
    key('i')
    editable.remove()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(go).not.toHaveBeenCalled()
    key('t')
    expect(await screen.findByRole('dialog', { name: 'Go to file' })).toBeTruthy()
  })

  it('"/" focuses the page\'s search box, or finds a file on a page without one', async () => {
    stubApi({ [`GET ${REPO}/git/trees/main`]: gitTree(PATHS) })
    const { unmount } = renderScreen(
      <RepoShortcuts repo={repoFixture()} gitRef="main">
        <form role="search">
          <Input type="search" aria-label="Search issues" />
        </form>
      </RepoShortcuts>,
    )
    key('/')
    expect(document.activeElement).toBe(screen.getByLabelText('Search issues'))
    expect(screen.queryByRole('dialog')).toBeNull()
    unmount()
    renderScreen(
      <RepoShortcuts repo={repoFixture()} gitRef="main">
        <p>No search here</p>
      </RepoShortcuts>,
    )
    key('/')
    expect(await screen.findByRole('dialog', { name: 'Go to file' })).toBeTruthy()
  })

  it('tell typing targets apart', () => {
    const div = document.createElement('div')
    div.innerHTML = '<input><textarea></textarea><select></select><p contenteditable="true"><b>x</b></p><p contenteditable="false">y</p><button>z</button>'
    const [input, textarea, select, editable, fixed, button] = [...div.children]
    expect([input, textarea, select, editable.firstElementChild, fixed, button, null].map((el) => isTypingTarget(el))).toEqual([true, true, true, true, false, false, false])
  })
})

describe('the clone box', () => {
  it('shows the whole HTTPS or SSH URL and copies the one shown, with an announced confirmation', async () => {
    homeApi({ [`GET ${REPO}`]: repoFixture({ ssh_url: 'ssh://git@localhost:2222/ada/engine.git' }) })
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const https = (await screen.findByLabelText('Clone over HTTP')) as HTMLInputElement
    expect(https.readOnly).toBe(true)
    expect(https.value).toBe('http://localhost/ada/engine.git')
    // In the main column, beside the code, not squeezed into the sidebar.
    expect(https.closest('.repo-main')).not.toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'SSH' }))
    const ssh = screen.getByLabelText('Clone over SSH') as HTMLInputElement
    expect(ssh.value).toBe('ssh://git@localhost:2222/ada/engine.git')
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy()
    const status = ssh.closest('.clone-box')?.querySelector('[role="status"]')
    expect(status?.textContent).toBe('Copied to the clipboard.')
    expect(writeText).toHaveBeenCalledWith('ssh://git@localhost:2222/ada/engine.git')
  })

  it('selects the URL for the user to copy when the clipboard refuses', async () => {
    homeApi()
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true })
    renderScreen(<RepositoryScreen />, '/ada/engine')
    const input = (await screen.findByLabelText('Clone over HTTP')) as HTMLInputElement
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await screen.findByText('Could not copy; select the URL and copy it yourself.')).toBeTruthy()
    expect(document.activeElement).toBe(input)
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, input.value.length])
  })
})
