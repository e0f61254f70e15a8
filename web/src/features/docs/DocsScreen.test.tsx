import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderScreen, stubFetch } from '@/test/render'
import ApiReferenceScreen from './ApiReferenceScreen'
import DocsScreen from './DocsScreen'

const DOCS = [
  { slug: 'index', title: 'Documentation', html: '' },
  { slug: 'getting-started', title: 'Getting Started', html: '' },
  { slug: 'api', title: 'API', html: '' },
]

// Answers like the node's content API: the list, known documents, 404 otherwise.
function stubContentAPI() {
  return stubFetch({
    '/api/v1/docs': DOCS,
    '/api/v1/docs/getting-started': { ...DOCS[1], html: '<p>Run <code>make run</code>.</p>' },
    '/api/v1/docs/api': { ...DOCS[2], html: '<h2>Conventions</h2><p>Base path: /api/v1.</p>' },
  })
}

describe('DocsScreen', () => {
  it('shows the selected document and marks it in the sidebar', async () => {
    stubContentAPI()
    renderScreen(<DocsScreen />, '/docs/getting-started')
    expect(await screen.findByRole('heading', { level: 1, name: 'Getting Started' })).toBeTruthy()
    expect(screen.getByText('make run')).toBeTruthy()
    const nav = screen.getByRole('navigation', { name: 'Documentation' })
    const current = within(nav).getByRole('link', { name: 'Getting Started' })
    expect(current.getAttribute('aria-current')).toBe('page')
    expect(within(nav).getByRole('link', { name: 'Documentation' }).getAttribute('href')).toBe('/docs')
  })

  it('shows a not-found message with a link back to /docs for an unknown slug', async () => {
    const fetchMock = stubContentAPI()
    renderScreen(<DocsScreen />, '/docs/no-such-page')
    expect(await screen.findByRole('heading', { level: 1, name: 'Document not found' })).toBeTruthy()
    expect(screen.getByText(/no document called “no-such-page”/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to the documentation' }).getAttribute('href')).toBe('/docs')
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/docs/no-such-page', expect.anything())
  })

  it('does not ask the server for a path that cannot be a document', async () => {
    const fetchMock = stubContentAPI()
    renderScreen(<DocsScreen />, '/docs/guides/intro')
    expect(await screen.findByRole('heading', { level: 1, name: 'Document not found' })).toBeTruthy()
    const asked = fetchMock.mock.calls.map(([url]) => String(url))
    expect(asked.every((u) => u === '/api/v1/docs')).toBe(true)
  })
})

describe('ApiReferenceScreen', () => {
  it('lists the endpoints that exist today and renders the api document', async () => {
    stubContentAPI()
    renderScreen(<ApiReferenceScreen />, '/api')
    expect(await screen.findByRole('heading', { level: 1, name: 'API reference' })).toBeTruthy()
    const row = screen.getByText('/api/v1/markdown').closest('tr')!
    expect(within(row).getByText('POST')).toBeTruthy()
    expect(within(row).getByText(/Renders Markdown to sanitized HTML/)).toBeTruthy()
    expect(screen.getByText(/generated OpenAPI document arrive with the forge milestone/)).toBeTruthy()
    expect(await screen.findByRole('heading', { level: 2, name: 'Conventions' })).toBeTruthy()
  })
})
