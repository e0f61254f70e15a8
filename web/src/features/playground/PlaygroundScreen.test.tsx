import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, renderScreen, stubFetch } from '@/test/render'
import PlaygroundScreen from './PlaygroundScreen'

const renderPlayground = () => renderScreen(<PlaygroundScreen />, '/playground')

function html(body: string): Response {
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } })
}

async function editor(): Promise<HTMLTextAreaElement> {
  return (await screen.findByLabelText('Markdown')) as HTMLTextAreaElement
}

describe('PlaygroundScreen', () => {
  it('starts with the example text and no request', async () => {
    const fetchMock = stubFetch()
    renderPlayground()
    expect((await editor()).value).toMatch(/^## Hello, dForge/)
    expect(screen.getByText('Press Preview to see your Markdown as dForge renders it.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('posts the text as gfm and shows the HTML the node returns', async () => {
    const fetchMock = stubFetch(async () => html('<h2 id="hi">Hi there</h2><p><strong>bold</strong></p>'))
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
    stubFetch(async () => json({ message: 'the server could not complete the request; please try again', code: 'internal' }, 500))
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
    stubFetch(async () => {
      throw new TypeError('Failed to fetch')
    })
    renderPlayground()
    const textarea = await editor()
    fireEvent.change(textarea, { target: { value: 'offline draft' } })
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }))

    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be loaded. Check your connection/)
    expect(textarea.value).toBe('offline draft')
  })

  it('with live preview on, renders once typing pauses', async () => {
    const fetchMock = stubFetch(async () => html('<p>typed</p>'))
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
