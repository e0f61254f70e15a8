import type { ErrorEvent } from '@sentry/react'
import { describe, expect, it } from 'vitest'
import { dropNoise, SENTRY_OPTIONS } from './sentry'

const event = (e: Partial<ErrorEvent>) => ({ type: undefined, ...e }) as ErrorEvent

describe('error reporting', () => {
  it('uses the spec constants', () => {
    expect(SENTRY_OPTIONS).toEqual({
      environment: 'production',
      release: '1.0.0',
      tracesSampleRate: 0.1,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1.0,
    })
  })

  it.each([
    event({ message: 'NetworkError when attempting to fetch resource.' }),
    event({ exception: { values: [{ value: 'boom', stacktrace: { frames: [{ filename: 'chrome-extension://abc/inject.js' }] } }] } }),
    event({ exception: { values: [{ value: 'failed in moz-extension://x/y.js' }] } }),
  ])('drops extension and network noise %#', (e) => {
    expect(dropNoise(e)).toBeNull()
  })

  it('keeps our own errors', () => {
    const e = event({ exception: { values: [{ value: 'TypeError: x is undefined', stacktrace: { frames: [{ filename: '/assets/index-abc.js' }] } }] } })
    expect(dropNoise(e)).toBe(e)
  })
})
