import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import { type ComponentType, Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import ApiReferenceScreen from './ApiReferenceScreen'
import DocsScreen from './DocsScreen'

const DOCS = [
  { slug: 'index', title: 'Documentation', html: '' },
  { slug: 'getting-started', title: 'Getting Started', html: '' },
  { slug: 'api', title: 'API', html: '' },
]

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

// Answers like the node's content API: the list, known documents, 404 otherwise.
function stubContentAPI() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input)
    if (url === '/api/v1/docs') return json(DOCS)
    if (url === '/api/v1/docs/getting-started') return json({ ...DOCS[1], html: '<p>Run <code>make run</code>.</p>' })
    if (url === '/api/v1/docs/api') return json({ ...DOCS[2], html: '<h2>Conventions</h2><p>Base path: /api/v1.</p>' })
    return json({ message: 'page not found', code: 'not_found' }, 404)
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

function renderAt(path: string, Screen: ComponentType) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <RouteContext value={matchRoute(path)}>
        <Suspense fallback={null}>
          <Screen />
        </Suspense>
      </RouteContext>
    </QueryClientProvider>,
  )
}

beforeAll(() => {
  initI18n()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('DocsScreen', () => {
  it('shows the selected document and marks it in the sidebar', async () => {
    stubContentAPI()
    renderAt('/docs/getting-started', DocsScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Getting Started' })).toBeTruthy()
    expect(screen.getByText('make run')).toBeTruthy()
    const nav = screen.getByRole('navigation', { name: 'Documentation' })
    const current = within(nav).getByRole('link', { name: 'Getting Started' })
    expect(current.getAttribute('aria-current')).toBe('page')
    expect(within(nav).getByRole('link', { name: 'Documentation' }).getAttribute('href')).toBe('/docs')
  })

  it('shows a not-found message with a link back to /docs for an unknown slug', async () => {
    const fetchMock = stubContentAPI()
    renderAt('/docs/no-such-page', DocsScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Document not found' })).toBeTruthy()
    expect(screen.getByText(/no document called “no-such-page”/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to the documentation' }).getAttribute('href')).toBe('/docs')
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/docs/no-such-page', expect.anything())
  })

  it('does not ask the server for a path that cannot be a document', async () => {
    const fetchMock = stubContentAPI()
    renderAt('/docs/guides/intro', DocsScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Document not found' })).toBeTruthy()
    const asked = fetchMock.mock.calls.map(([url]) => String(url))
    expect(asked.every((u) => u === '/api/v1/docs')).toBe(true)
  })
})

describe('ApiReferenceScreen', () => {
  it('lists the endpoints that exist today and renders the api document', async () => {
    stubContentAPI()
    renderAt('/api', ApiReferenceScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'API reference' })).toBeTruthy()
    const row = screen.getByText('/api/v1/markdown').closest('tr')!
    expect(within(row).getByText('POST')).toBeTruthy()
    expect(within(row).getByText(/Renders Markdown to sanitized HTML/)).toBeTruthy()
    expect(screen.getByText(/generated OpenAPI document arrive with the forge milestone/)).toBeTruthy()
    expect(await screen.findByRole('heading', { level: 2, name: 'Conventions' })).toBeTruthy()
  })
})
