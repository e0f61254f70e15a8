import type { Metric } from 'web-vitals'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const reportMessage = vi.fn()
vi.mock('./report', () => ({ reportMessage: (...a: unknown[]) => reportMessage(...a) }))

const { sendMetric, VITALS_ENDPOINT } = await import('./vitals')

function metric(over: Partial<Metric>): Metric {
  return { name: 'LCP', value: 1234.4, rating: 'good', delta: 1234.4, id: 'v5-1', entries: [], navigationType: 'navigate', ...over } as Metric
}

let fetchMock: ReturnType<typeof vi.fn>

beforeEach(() => {
  fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }))
  globalThis.fetch = fetchMock as unknown as typeof fetch
  reportMessage.mockClear()
  delete window.gtag
})

afterEach(() => vi.restoreAllMocks())

describe('sendMetric', () => {
  it('posts the report with keepalive', () => {
    sendMetric(metric({}))
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe(VITALS_ENDPOINT)
    expect(init).toMatchObject({ method: 'POST', keepalive: true })
    const body = JSON.parse(init.body)
    expect(Object.keys(body).sort()).toEqual(['delta', 'id', 'name', 'navigationType', 'rating', 'timestamp', 'url', 'userAgent', 'value'])
    expect(body).toMatchObject({ name: 'LCP', value: 1234.4, rating: 'good', url: window.location.href })
  })

  it('passes the metric to gtag, CLS times 1000 and rounded, as a non-interaction', () => {
    const gtag = vi.fn()
    window.gtag = gtag
    sendMetric(metric({ name: 'CLS', value: 0.1234, rating: 'needs-improvement' }))
    expect(gtag).toHaveBeenCalledWith('event', 'CLS', { value: 123, event_category: 'Web Vitals', event_label: 'v5-1', non_interaction: true })
    sendMetric(metric({ name: 'LCP', value: 1234.6 }))
    expect(gtag).toHaveBeenLastCalledWith('event', 'LCP', expect.objectContaining({ value: 1235 }))
  })

  it('reports only non-good ratings to error reporting', () => {
    sendMetric(metric({ rating: 'good' }))
    expect(reportMessage).not.toHaveBeenCalled()
    sendMetric(metric({ rating: 'poor' }))
    expect(reportMessage).toHaveBeenCalledWith('Web vital LCP rated poor', expect.objectContaining({ name: 'LCP' }))
  })

  it('never writes the metric to the console, and only logs a failed POST', async () => {
    const log = vi.spyOn(console, 'log')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    fetchMock.mockRejectedValueOnce(new TypeError('offline'))
    sendMetric(metric({}))
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1))
    expect(log).not.toHaveBeenCalled()
  })
})
