import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { nav } from '@/lib/forge/nav'
import { REPO, repoFixture, stubApi, text } from '@/test/forge'
import { useAuthStore } from '@/stores/auth'
import BlameScreen from './BlameScreen'
import CodeScreen from './CodeScreen'
import EditFileScreen from './EditFileScreen'
import { fieldProblem, isMarkdown } from './FileEditor'
import { fromBase64, toBase64 } from './contentsApi'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('repositories', 'code')

let go: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => {
  go.mockRestore()
  useAuthStore.getState().logout()
})

const writer = () => repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) })
const BRANCHES = [
  { name: 'main', commit: { id: 'a'.repeat(40), message: 'm' } },
  { name: 'dev', commit: { id: 'b'.repeat(40), message: 'd' } },
  { name: 'feature/login', commit: { id: 'c'.repeat(40), message: 'f' } },
]
const TAGS = [{ name: 'v1.0', id: 't', commit: { sha: 'd'.repeat(40) } }]
const MAIN_GO = { name: 'main.go', path: 'cmd/main.go', sha: 'f'.repeat(40), type: 'file', size: 13, encoding: 'base64', content: toBase64('package main\n') }

describe('the ref selector', () => {
  it('filters the branches, lists the tags, and closes on Escape with focus back on its button', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: BRANCHES,
      [`GET ${REPO}/tags`]: TAGS,
      [`GET ${REPO}/contents`]: [],
      [`GET ${REPO}/last_commits`]: { commit: 'a'.repeat(40), entries: [] },
    })
    renderScreen(<CodeScreen />, '/ada/engine/src')
    const toggle = await screen.findByRole('button', { name: /Branch\s+main/ })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(toggle)
    const dialog = screen.getByRole('dialog', { name: 'Choose a branch or tag' })
    const filter = within(dialog).getByLabelText('Filter branches and tags')
    expect(document.activeElement).toBe(filter)
    expect(await within(dialog).findByRole('link', { name: /feature\/login/ })).toBeTruthy()
    fireEvent.change(filter, { target: { value: 'DEV' } })
    const links = within(dialog).getAllByRole('link')
    expect(links.map((l) => l.textContent)).toEqual(['dev'])
    expect(links[0].getAttribute('href')).toBe('/ada/engine/src?ref=dev')
    fireEvent.change(filter, { target: { value: 'nothing' } })
    expect(within(dialog).getByText('Nothing matches “nothing”.')).toBeTruthy()
    fireEvent.change(filter, { target: { value: '' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Tags' }))
    expect(within(dialog).getByRole('link', { name: 'v1.0' }).getAttribute('href')).toBe('/ada/engine/src?ref=v1.0')
    fireEvent.keyDown(filter, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(toggle)
  })
})

describe('the tree listing', () => {
  it('shows the last commit of each entry and the archive downloads of the ref', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: BRANCHES,
      [`GET ${REPO}/tags`]: TAGS,
      [`GET ${REPO}/contents/cmd`]: [MAIN_GO],
      [`GET ${REPO}/last_commits`]: {
        commit: 'b'.repeat(40),
        entries: [{ name: 'main.go', path: 'cmd/main.go', commit: { sha: 'e'.repeat(40), message: 'Start the engine', html_url: '', author: { name: 'Ada', email: '', date: '2026-01-01T00:00:00Z' }, committer: { name: 'Ada', email: '', date: '2026-01-01T00:00:00Z' } } }],
      },
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd?ref=dev')
    // The listing draws first; the last commits follow from their own request.
    const commit = await screen.findByRole('link', { name: 'Start the engine' }, { timeout: 5000 })
    expect(commit.getAttribute('href')).toBe(`/ada/engine/commit/${'e'.repeat(40)}`)
    expect(screen.getByRole('link', { name: 'Download ZIP' }).getAttribute('href')).toBe(`${REPO}/archive/dev.zip`)
    expect(screen.getByRole('link', { name: 'Download TAR.GZ' }).getAttribute('href')).toBe(`${REPO}/archive/dev.tar.gz`)
    // A reader gets no New file.
    expect(screen.queryByRole('link', { name: 'New file' })).toBeNull()
  })
})

describe('the file editor', () => {
  it('commits an edit straight to the branch, with the blob it replaces', async () => {
    signIn()
    const api = stubApi({
      [`GET ${REPO}`]: writer(),
      [`GET ${REPO}/contents/cmd/main.go`]: MAIN_GO,
      [`POST ${REPO}/contents`]: () => json({ commit: { sha: '1'.repeat(40) }, files: [{ path: 'cmd/main.go', sha: '2'.repeat(40) }] }, 201),
    })
    renderScreen(<EditFileScreen />, '/ada/engine/_edit/cmd/main.go?ref=dev')
    const area = (await screen.findByLabelText('Content')) as HTMLTextAreaElement
    expect(area.value).toBe('package main\n')
    fireEvent.change(area, { target: { value: 'package main\n\nfunc main() {}\n' } })
    fireEvent.click(screen.getByRole('button', { name: 'Commit changes' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/src/cmd/main.go?ref=dev'))
    const [call] = api.sent('POST', `${REPO}/contents`)
    const body = call.body as { branch: string; new_branch?: string; message: string; files: { operation: string; path: string; sha: string; content: string }[] }
    expect(body.branch).toBe('dev')
    expect(body.new_branch).toBeUndefined()
    expect(body.message).toBe('Update cmd/main.go')
    expect(body.files).toHaveLength(1)
    expect(body.files[0]).toMatchObject({ operation: 'update', path: 'cmd/main.go', sha: 'f'.repeat(40) })
    expect(fromBase64(body.files[0].content)).toBe('package main\n\nfunc main() {}\n')
  })

  it('previews a Markdown file on the server and commits what was written', async () => {
    signIn()
    const readme = { ...MAIN_GO, name: 'README.md', path: 'README.md', content: toBase64('# Engine\n') }
    const api = stubApi({
      [`GET ${REPO}`]: writer(),
      [`GET ${REPO}/contents/README.md`]: readme,
      'POST /api/v1/markdown': (b: unknown) => text(`<h1>${(b as { text: string }).text.includes('Mill') ? 'Mill' : 'Engine'}</h1><ul><li><input disabled="" type="checkbox"> gears</li></ul>`, 200, 'text/html'),
      [`POST ${REPO}/contents`]: () => json({ commit: { sha: '1'.repeat(40) }, files: [{ path: 'README.md', sha: '2'.repeat(40) }] }, 201),
    })
    renderScreen(<EditFileScreen />, '/ada/engine/_edit/README.md')
    fireEvent.change(await screen.findByLabelText('Content'), { target: { value: '# Mill\n\n- [ ] gears\n' } })
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Mill' })).toBeTruthy()
    expect((screen.getByRole('checkbox', { name: 'gears' }) as HTMLInputElement).disabled).toBe(true)
    expect(api.sent('POST', '/api/v1/markdown')[0].body).toEqual({ text: '# Mill\n\n- [ ] gears\n', mode: 'gfm' })
    expect(screen.queryByLabelText('Content')).toBeNull()
    fireEvent.click(screen.getByRole('tab', { name: 'Write' }))
    expect(((await screen.findByLabelText('Content')) as HTMLTextAreaElement).value).toBe('# Mill\n\n- [ ] gears\n')
    fireEvent.click(screen.getByRole('button', { name: 'Commit changes' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/contents`)).toHaveLength(1))
    const body = api.sent('POST', `${REPO}/contents`)[0].body as { files: { content: string }[] }
    expect(fromBase64(body.files[0].content)).toBe('# Mill\n\n- [ ] gears\n')
  })

  it('offers no preview for a file that is not Markdown', async () => {
    signIn()
    stubApi({ [`GET ${REPO}`]: writer(), [`GET ${REPO}/contents/cmd/main.go`]: MAIN_GO })
    renderScreen(<EditFileScreen />, '/ada/engine/_edit/cmd/main.go')
    await screen.findByLabelText('Content')
    expect(screen.queryByRole('tab', { name: 'Preview' })).toBeNull()
    expect(isMarkdown('docs/Guide.MARKDOWN') && isMarkdown('a.md') && !isMarkdown('md') && !isMarkdown('a.mdx')).toBe(true)
  })

  it('puts a new file on a new branch and goes on to open the pull request', async () => {
    signIn()
    const api = stubApi({
      [`GET ${REPO}`]: writer(),
      [`POST ${REPO}/contents`]: () => json({ commit: { sha: '1'.repeat(40) }, files: [{ path: 'docs/intro.md', sha: '2'.repeat(40) }] }, 201),
    })
    renderScreen(<EditFileScreen />, '/ada/engine/_new/docs')
    fireEvent.click(await screen.findByRole('button', { name: 'Commit new file' }))
    // No name yet: the field says so and nothing is sent.
    expect(await screen.findByText(/Name the file with a path/)).toBeTruthy()
    fireEvent.change(screen.getByLabelText('File name'), { target: { value: 'intro.md' } })
    fireEvent.change(screen.getByLabelText('Content'), { target: { value: '# Intro\n' } })
    fireEvent.change(screen.getByLabelText('Commit message'), { target: { value: 'Write the intro' } })
    fireEvent.click(screen.getByLabelText('Create a new branch for this commit and start a pull request'))
    fireEvent.change(screen.getByLabelText('New branch name'), { target: { value: 'docs/intro' } })
    fireEvent.click(screen.getByRole('button', { name: 'Commit new file' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/pulls/new?base=main&head=docs%2Fintro'))
    const body = api.sent('POST', `${REPO}/contents`)[0].body as { branch: string; new_branch: string; message: string; files: { operation: string; path: string }[] }
    expect(body).toMatchObject({ branch: 'main', new_branch: 'docs/intro', message: 'Write the intro' })
    expect(body.files[0]).toMatchObject({ operation: 'create', path: 'docs/intro.md' })
  })

  it('says when the file changed since it was opened', async () => {
    signIn()
    stubApi({
      [`GET ${REPO}`]: writer(),
      [`GET ${REPO}/contents/cmd/main.go`]: MAIN_GO,
      [`POST ${REPO}/contents`]: () => json({ message: 'stale', code: 'sha_mismatch', field: 'sha' }, 422),
    })
    renderScreen(<EditFileScreen />, '/ada/engine/_edit/cmd/main.go')
    fireEvent.click(await screen.findByRole('button', { name: 'Commit changes' }))
    expect(await screen.findByText(/The file changed since you opened it/)).toBeTruthy()
    expect(go).not.toHaveBeenCalled()
  })

  it('deletes a file with its sha', async () => {
    signIn()
    const api = stubApi({
      [`GET ${REPO}`]: writer(),
      [`GET ${REPO}/contents/cmd/main.go`]: MAIN_GO,
      [`POST ${REPO}/contents`]: () => json({ commit: { sha: '1'.repeat(40) }, files: [null] }, 201),
    })
    renderScreen(<EditFileScreen />, '/ada/engine/_delete/cmd/main.go')
    expect(await screen.findByText('cmd/main.go will be deleted in a new commit.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Delete file' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/src/cmd'))
    const body = api.sent('POST', `${REPO}/contents`)[0].body as { files: unknown[]; message: string }
    expect(body.files).toEqual([{ operation: 'delete', path: 'cmd/main.go', sha: 'f'.repeat(40) }])
    expect(body.message).toBe('Delete cmd/main.go')
  })

  it('tells a reader that only writers change files', async () => {
    signIn()
    stubApi({ [`GET ${REPO}`]: repoFixture() })
    renderScreen(<EditFileScreen />, '/ada/engine/_edit/cmd/main.go')
    expect(await screen.findByText('You can read this repository, but only its writers can change files.')).toBeTruthy()
  })

  it('checks the file and branch names', () => {
    expect(fieldProblem('new', '', 'direct', '')).toBe('name')
    expect(fieldProblem('new', 'a/../b', 'direct', '')).toBe('name')
    expect(fieldProblem('new', 'a/b.md', 'direct', '')).toBeNull()
    expect(fieldProblem('edit', '', 'branch', 'bad name')).toBe('branch')
    expect(fieldProblem('edit', '', 'branch', 'fix/typo')).toBeNull()
  })
})

describe('the blame view', () => {
  it('shows each run of lines with its commit and line numbers', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: BRANCHES,
      [`GET ${REPO}/blame/cmd/main.go`]: {
        commit: 'a'.repeat(40),
        path: 'cmd/main.go',
        ranges: [
          { start_line: 1, lines: ['package main', ''], commit: { sha: '1'.repeat(40), message: 'Start', html_url: '', author: { name: 'Ada', email: '', date: '2026-01-01T00:00:00Z' }, committer: { name: 'Ada', email: '', date: '2026-01-01T00:00:00Z' } } },
          { start_line: 3, lines: ['func main() {}'], commit: { sha: '2'.repeat(40), message: 'Add main', html_url: '', author: { name: 'Bob', email: '', date: '2026-01-02T00:00:00Z' }, committer: { name: 'Bob', email: '', date: '2026-01-02T00:00:00Z' } } },
        ],
      },
    })
    renderScreen(<BlameScreen />, '/ada/engine/blame/cmd/main.go')
    const table = await screen.findByRole('table', { name: 'Who last changed each line of cmd/main.go' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(2)
    expect(within(rows[1]).getByText('Add main')).toBeTruthy()
    expect(within(rows[1]).getByText('3')).toBeTruthy()
    expect(within(rows[0]).getByRole('link', { name: '1111111' }).getAttribute('href')).toBe(`/ada/engine/commit/${'1'.repeat(40)}`)
  })
})

describe('the file view', () => {
  it('offers a writer Blame, Edit and Delete on a branch, and only Blame at a tag', async () => {
    stubApi({
      [`GET ${REPO}`]: writer(),
      [`GET ${REPO}/branches`]: BRANCHES,
      [`GET ${REPO}/tags`]: TAGS,
      [`GET ${REPO}/contents/cmd/main.go`]: MAIN_GO,
    })
    const first = renderScreen(<CodeScreen />, '/ada/engine/src/cmd/main.go?ref=dev')
    const edit = await screen.findByRole('link', { name: 'Edit' }, { timeout: 5000 })
    expect(edit.getAttribute('href')).toBe('/ada/engine/_edit/cmd/main.go?ref=dev')
    expect(screen.getByRole('link', { name: 'Delete' }).getAttribute('href')).toBe('/ada/engine/_delete/cmd/main.go?ref=dev')
    expect(screen.getByRole('link', { name: 'Blame' }).getAttribute('href')).toBe('/ada/engine/blame/cmd/main.go?ref=dev')
    expect(screen.queryByRole('link', { name: 'New file' })).toBeNull()
    first.unmount()
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd/main.go?ref=v1.0')
    expect(await screen.findByRole('link', { name: 'Blame' }, { timeout: 5000 })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Delete' })).toBeNull()
  })

  it('offers a writer New file in a directory of a branch', async () => {
    stubApi({
      [`GET ${REPO}`]: writer(),
      [`GET ${REPO}/branches`]: BRANCHES,
      [`GET ${REPO}/contents/cmd`]: [MAIN_GO],
      [`GET ${REPO}/last_commits`]: { commit: 'b'.repeat(40), entries: [] },
    })
    renderScreen(<CodeScreen />, '/ada/engine/src/cmd?ref=dev')
    const link = await screen.findByRole('link', { name: 'New file' }, { timeout: 5000 })
    expect(link.getAttribute('href')).toBe('/ada/engine/_new/cmd?ref=dev')
  })
})
