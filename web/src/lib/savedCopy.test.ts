import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { ageOf, formatAge, noteResponse, resetSavedCopies, SAVED_COPY_HEADER, savedAt, useOldestSavedCopy } from './savedCopy'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const answer = (date: string | null, saved = true) => {
  const headers = new Headers()
  if (date) headers.set('Date', date)
  if (saved) headers.set(SAVED_COPY_HEADER, '1')
  return { headers }
}

afterEach(() => resetSavedCopies())

describe('saved copies', () => {
  test('only an answer the service worker marked is a saved copy, dated by the node', () => {
    expect(savedAt(answer('Thu, 26 Nov 2026 11:55:00 GMT'))).toBe(Date.parse('2026-11-26T11:55:00Z'))
    expect(savedAt(answer('Thu, 26 Nov 2026 11:55:00 GMT', false))).toBeNull()
    expect(savedAt(answer(null))).toBeNull()
    expect(savedAt(answer('not a date'))).toBeNull()
  })

  test('the age is the largest whole unit that fits', () => {
    expect(ageOf(NOW - 40_000, NOW)).toEqual({ value: 40, unit: 'second' })
    expect(ageOf(NOW - 5 * 60_000 - 59_000, NOW)).toEqual({ value: 5, unit: 'minute' })
    expect(ageOf(NOW - 3 * 3_600_000, NOW)).toEqual({ value: 3, unit: 'hour' })
    expect(ageOf(NOW - 2 * 86_400_000, NOW)).toEqual({ value: 2, unit: 'day' })
    expect(ageOf(NOW - 15 * 86_400_000, NOW)).toEqual({ value: 2, unit: 'week' })
    expect(ageOf(NOW - 400 * 86_400_000, NOW)).toEqual({ value: 1, unit: 'year' })
    // A client clock behind the node's never gives a negative age.
    expect(ageOf(NOW + 90_000, NOW)).toEqual({ value: 0, unit: 'second' })
  })

  test('the age reads in the language', () => {
    expect(formatAge(NOW - 5 * 60_000, NOW, 'en')).toBe('5 minutes ago')
    expect(formatAge(NOW - 60_000, NOW, 'en')).toBe('1 minute ago')
    expect(formatAge(NOW - 2 * 86_400_000, NOW, 'de')).toBe('vor 2 Tagen')
  })

  test('the page keeps the oldest saved copy it showed; fresh answers change nothing', () => {
    const { result } = renderHook(() => useOldestSavedCopy())
    expect(result.current).toBeNull()
    act(() => noteResponse(answer('Thu, 26 Nov 2026 11:50:00 GMT', false)))
    expect(result.current).toBeNull()
    act(() => noteResponse(answer('Thu, 26 Nov 2026 11:55:00 GMT')))
    expect(result.current).toBe(Date.parse('2026-11-26T11:55:00Z'))
    act(() => noteResponse(answer('Thu, 26 Nov 2026 11:40:00 GMT')))
    expect(result.current).toBe(Date.parse('2026-11-26T11:40:00Z'))
    act(() => noteResponse(answer('Thu, 26 Nov 2026 11:58:00 GMT')))
    expect(result.current).toBe(Date.parse('2026-11-26T11:40:00Z'))
  })
})
