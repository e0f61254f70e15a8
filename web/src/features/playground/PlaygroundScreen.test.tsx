import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { matchRoute, RouteContext } from '@/app/routes'
import { initI18n } from '@/i18n/i18n'
import PlaygroundScreen from './PlaygroundScreen'

function renderPlayground() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <RouteContext value={matchRoute('/playground')}>
        <Suspense fallback={null}>
          <PlaygroundScreen />
        </Suspense>
      </RouteContext>
    </QueryClientProvider>,
  )
}

function html(body: string): Response {
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } })
}

beforeAll(() => {
  initI18n()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

async function editor(): Promise<HTMLTextAreaElement> {
  return (await screen.findByLabelText('Markdown')) as HTMLTextAreaElement
}

describe('PlaygroundScreen', () => {
  it('starts with the example text and no request', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderPlayground()
    expect((await editor()).value).toMatch(/^## Hello, dForge/)
    expect(screen.getByText('Press Preview to see your Markdown as dForge renders it.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('posts the text as gfm and shows the HTML the node returns', async () => {
    const fetchMock = vi.fn(async () => html('<h2 id="hi">Hi there</h2><p><strong>bold</strong></p>'))
    vi.stubGlobal('fetch', fetchMock)
    renderPlayground()
    fireEvent.change(await editor(), { target: { value: '## Hi there\n\n**bold**' } })
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }))

    expect(await screen.findByRole('heading', { level: 2, name: 'Hi there' })).toBeTruthy()
    expect(screen.getByText('bold').tagName).toBe('STRONG')
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/v1/markdown')
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toEqual({ text: '## Hi there\n\n**bold**', mode: 'gfm' })
  })

  it('shows the server error clearly and keeps the text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(JSON.stringify({ message: 'the server could not complete the request; please try again', code: 'internal' }), {
          status: 500,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    )
    renderPlayground()
    const textarea = await editor()
    fireEvent.change(textarea, { target: { value: 'my *precious* draft' } })
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }))

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe(
      'The node could not render this text (the server could not complete the request; please try again). Your text is still here.',
    )
    expect(textarea.value).toBe('my *precious* draft')
  })

  it('explains a network failure and keeps the text', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')))
    renderPlayground()
    const textarea = await editor()
    fireEvent.change(textarea, { target: { value: 'offline draft' } })
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }))

    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be loaded. Check your connection/)
    expect(textarea.value).toBe('offline draft')
  })

  it('with live preview on, renders once typing pauses', async () => {
    const fetchMock = vi.fn(async () => html('<p>typed</p>'))
    vi.stubGlobal('fetch', fetchMock)
    renderPlayground()
    const textarea = await editor()
    fireEvent.click(screen.getByLabelText('Update the preview as I type'))
    fireEvent.change(textarea, { target: { value: 't' } })
    fireEvent.change(textarea, { target: { value: 'ty' } })
    fireEvent.change(textarea, { target: { value: 'typed' } })

    expect(await screen.findByText('typed', { selector: 'p' }, { timeout: 2000 })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(JSON.parse(String(init.body)).text).toBe('typed')
  })
})
