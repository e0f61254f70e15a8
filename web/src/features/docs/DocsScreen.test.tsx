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
  it('lists the endpoints of the generated OpenAPI document and renders the api document', async () => {
    stubFetch({
      '/api/v1/docs': DOCS,
      '/api/v1/docs/api': { ...DOCS[2], html: '<h2>Conventions</h2><p>Base path: /api/v1.</p>' },
      '/openapi.json': {
        openapi: '3.0.3',
        info: { title: 'dForge API', version: '1' },
        paths: { '/api/v1/markdown': { post: { operationId: 'postMarkdown', summary: 'Renders Markdown to sanitized HTML.' } } },
      },
    })
    renderScreen(<ApiReferenceScreen />, '/api')
    expect(await screen.findByRole('heading', { level: 1, name: 'API reference' })).toBeTruthy()
    const item = (await screen.findByText('/api/v1/markdown', { selector: '.api-path' })).closest('li')!
    expect(within(item).getByText('POST')).toBeTruthy()
    expect(within(item).getByText(/Renders Markdown to sanitized HTML/)).toBeTruthy()
    expect(await screen.findByRole('heading', { level: 2, name: 'Conventions' })).toBeTruthy()
  })
})
