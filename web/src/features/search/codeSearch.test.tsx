import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { json, preloadNamespaces, renderScreen } from '@/test/render'
import CodeSearchScreen from './CodeSearchScreen'
import SearchScreen from './SearchScreen'
import { highlightParts } from './codeSearch'

preloadNamespaces('search', 'issues', 'wallet', 'repositories', 'code')

const param = (name: string) => new URLSearchParams(window.location.search).get(name)
const paramsOf = (url: string | undefined) => Object.fromEntries(new URL(url ?? '', 'http://x').searchParams)

const FOUND = {
  total: 2,
  items: [
    {
      repository: { id: 7, full_name: 'ada/engine' },
      path: 'src/mill.go',
      language: 'Go',
      html_url: 'http://localhost/ada/engine/src/src/mill.go#L3',
      lines: [{ number: 3, text: '\tspindle := turn(Spindle)', ranges: [[1, 8], [17, 24]] }],
    },
    { repository: { id: 8, full_name: 'grace/loom' }, path: 'spindle.md', language: 'Markdown', html_url: '', lines: [] },
  ],
  languages: [
    { name: 'Go', count: 1 },
    { name: 'Markdown', count: 1 },
  ],
}

describe('code search', () => {
  it('marks the matched words of a line by code points', () => {
    expect(highlightParts('a 😀 spindle b', [[4, 11]])).toEqual([
      { text: 'a 😀 ', match: false },
      { text: 'spindle', match: true },
      { text: ' b', match: false },
    ])
    expect(highlightParts('xx', [])).toEqual([{ text: 'xx', match: false }])
  })

  it('lists the matching files on /search with their lines, the matches marked, and filters by language', async () => {
    const api = stubApi({ 'GET /api/v1/search/code': FOUND })
    renderScreen(<SearchScreen />, '/search?q=spindle&type=code')
    expect(screen.getByRole('tab', { name: 'Code' }).getAttribute('aria-selected')).toBe('true')
    const results = await screen.findByRole('list', { name: 'Search results' })
    const rows = [...results.querySelectorAll(':scope > li')] as HTMLElement[]
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByRole('link', { name: 'ada/engine' }).getAttribute('href')).toBe('/ada/engine')
    expect(within(rows[0]).getByRole('link', { name: 'src/mill.go' }).getAttribute('href')).toBe('/ada/engine/src/src/mill.go')
    const lines = within(rows[0]).getByRole('list', { name: 'Matching lines in src/mill.go' })
    expect(within(lines).getByRole('link', { name: 'Line 3' }).getAttribute('href')).toBe('/ada/engine/src/src/mill.go#L3')
    expect([...lines.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['spindle', 'Spindle'])
    expect(within(rows[1]).getByRole('link', { name: 'spindle.md' })).toBeTruthy()
    expect(paramsOf(api.sent('GET', '/api/v1/search/code')[0]?.url)).toEqual({ q: 'spindle', page: '1', limit: '10' })

    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'Go' } })
    expect(param('language')).toBe('Go')
    await waitFor(() => expect(paramsOf(api.sent('GET', '/api/v1/search/code').at(-1)?.url).language).toBe('Go'))
  })

  it('narrows a search across repositories to one typed as owner/name, kept in the URL, and takes the filter off again', async () => {
    const api = stubApi({
      'GET /api/v1/search/code': (_: unknown, url: URL) => {
        const repo = url.searchParams.get('repo')
        if (repo === 'ada/ghost') return json({ message: 'Repository not found', code: 'not_found' }, 404)
        return repo ? { ...FOUND, total: 1, items: FOUND.items.filter((h) => h.repository.full_name === repo) } : FOUND
      },
    })
    renderScreen(<SearchScreen />, '/search?q=spindle&type=code')
    await screen.findByRole('list', { name: 'Search results' })
    const box = screen.getByRole('combobox', { name: 'Repository' })
    // The repositories of the hits are offered.
    const offered = [...(document.getElementById(box.getAttribute('list') ?? '')?.querySelectorAll('option') ?? [])].map((o) => o.getAttribute('value'))
    expect(offered).toEqual(['ada/engine', 'grace/loom'])

    const sentBefore = api.sent('GET', '/api/v1/search/code').length
    fireEvent.change(box, { target: { value: 'engine' } })
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }))
    expect(screen.getByText('Type the repository as owner/name.')).toBeTruthy()
    expect(box.getAttribute('aria-invalid')).toBe('true')
    expect(api.sent('GET', '/api/v1/search/code')).toHaveLength(sentBefore)

    fireEvent.change(box, { target: { value: 'grace/loom' } })
    fireEvent.submit(box.closest('form')!)
    await waitFor(() => expect(paramsOf(api.sent('GET', '/api/v1/search/code').at(-1)?.url).repo).toBe('grace/loom'))
    expect(param('repo')).toBe('grace/loom')
    await waitFor(() => expect(screen.queryByRole('link', { name: 'src/mill.go' })).toBeNull())
    expect(screen.getByRole('link', { name: 'spindle.md' })).toBeTruthy()

    fireEvent.change(screen.getByRole('combobox', { name: 'Repository' }), { target: { value: 'ada/ghost' } })
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }))
    expect((await screen.findByRole('alert')).textContent).toBe('There is no repository “ada/ghost” you can search on this node.')

    fireEvent.click(screen.getByRole('button', { name: 'All repositories' }))
    await waitFor(() => expect(param('repo')).toBeNull())
    expect(await screen.findByRole('link', { name: 'src/mill.go' })).toBeTruthy()
    expect(paramsOf(api.sent('GET', '/api/v1/search/code').at(-1)?.url).repo).toBeUndefined()
  })

  it('says so when no file matches', async () => {
    stubApi({ 'GET /api/v1/search/code': { total: 0, items: [], languages: [] } })
    renderScreen(<SearchScreen />, '/search?q=nothing&type=code')
    expect(await screen.findByText('No results found. Try a different search.')).toBeTruthy()
  })

  it("searches one repository's code from its own page", async () => {
    const api = stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/search/code`]: { ...FOUND, items: FOUND.items.slice(0, 1), total: 1 } })
    renderScreen(<CodeSearchScreen />, '/ada/engine/search')
    const input = await screen.findByLabelText('Search code in this repository')
    expect(screen.getByText(/Type words of code/)).toBeTruthy()
    fireEvent.change(input, { target: { value: 'spindle' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    const results = await screen.findByRole('list', { name: 'Search results' })
    // In one repository, the file is named without it.
    expect(within(results).queryByRole('link', { name: 'ada/engine' })).toBeNull()
    expect(within(results).getByRole('link', { name: 'src/mill.go' })).toBeTruthy()
    expect(param('q')).toBe('spindle')
    expect(paramsOf(api.sent('GET', `${REPO}/search/code`)[0]?.url)).toEqual({ q: 'spindle', page: '1', limit: '10' })
  })
})
