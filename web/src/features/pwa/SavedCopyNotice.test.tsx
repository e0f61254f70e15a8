import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { initI18n } from '@/i18n/i18n'
import { noteResponse, resetSavedCopies, SAVED_COPY_HEADER } from '@/lib/savedCopy'
import { SavedCopyNotice } from './SavedCopyNotice'

beforeAll(() => {
  initI18n()
})
afterEach(() => {
  resetSavedCopies()
  vi.restoreAllMocks()
})

function savedCopy(minutesAgo: number) {
  const date = new Date(Date.now() - minutesAgo * 60_000).toUTCString()
  act(() => noteResponse({ headers: new Headers({ Date: date, [SAVED_COPY_HEADER]: '1' }) }))
}

describe('SavedCopyNotice', () => {
  it('shows nothing while every answer is fresh', () => {
    const { container } = render(<SavedCopyNotice />)
    act(() => noteResponse({ headers: new Headers({ Date: new Date().toUTCString() }) }))
    expect(container.textContent).toBe('')
  })

  it('says how old the oldest saved copy is, and that the browser is offline', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    render(<SavedCopyNotice />)
    savedCopy(5)
    expect(screen.getByRole('status').textContent).toBe('Saved copy from 5 minutes ago: you are offline.')
    savedCopy(2)
    expect(screen.getByRole('status').textContent).toBe('Saved copy from 5 minutes ago: you are offline.')
  })

  it('online, the saved copy means the node was too slow', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true)
    render(<SavedCopyNotice />)
    savedCopy(180)
    expect(screen.getByRole('status').textContent).toBe('Saved copy from 3 hours ago: the node did not answer in time.')
  })
})
