import { describe, expect, it } from 'vitest'
import { dateTimeFormat, numberFormat, relativeTimeFormat } from './intl'

describe('intl formatters', () => {
  it('builds one formatter per language and options, and reuses it', () => {
    expect(numberFormat('en')).toBe(numberFormat('en'))
    expect(numberFormat('en', { maximumFractionDigits: 1 })).toBe(numberFormat('en', { maximumFractionDigits: 1 }))
    expect(numberFormat('en', { maximumFractionDigits: 1 })).not.toBe(numberFormat('en'))
  })

  it('formats in the language it was asked for, whichever was asked first', () => {
    expect(numberFormat('en').format(12345.5)).toBe('12,345.5')
    expect(numberFormat('de').format(12345.5)).toBe('12.345,5')
    expect(numberFormat('en', { maximumFractionDigits: 0 }).format(2.4)).toBe('2')
    expect(dateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date('2026-01-02T00:00:00Z'))).toBe('Jan 2, 2026')
    expect(dateTimeFormat('de', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date('2026-01-02T00:00:00Z'))).toBe('2. Jan. 2026')
    expect(relativeTimeFormat('en', { numeric: 'auto' }).format(-1, 'day')).toBe('yesterday')
    expect(relativeTimeFormat('fr', { numeric: 'auto' }).format(-1, 'day')).toBe('hier')
  })
})
