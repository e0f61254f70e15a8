import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { initI18n } from '@/i18n/i18n'
import { DISMISS_FOR_MS, INSTALL_DISMISSED_KEY, InstallPrompt } from './InstallPrompt'

beforeAll(() => {
  initI18n()
})

function standalone(yes: boolean) {
  window.matchMedia = vi.fn().mockImplementation((q: string) => ({ matches: yes && q.includes('standalone'), addEventListener() {}, removeEventListener() {} }))
}

function fireInstallable() {
  const prompt = vi.fn().mockResolvedValue(undefined)
  const e = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt })
  act(() => {
    window.dispatchEvent(e)
  })
  return { prompt, event: e }
}

beforeEach(() => {
  vi.useFakeTimers()
  localStorage.clear()
  standalone(false)
})
afterEach(() => vi.useRealTimers())

describe('InstallPrompt', () => {
  it('appears 30 s after the browser signals installability', () => {
    render(<InstallPrompt />)
    const { event } = fireInstallable()
    expect(event.defaultPrevented).toBe(true)
    act(() => vi.advanceTimersByTime(29_999))
    expect(screen.queryByText('Install the app')).toBeNull()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.getByText('Install the app')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Install' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Not now' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy()
  })

  it('Install prompts the browser and hides the card', async () => {
    render(<InstallPrompt />)
    const { prompt } = fireInstallable()
    act(() => vi.advanceTimersByTime(30_000))
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Install' })))
    expect(prompt).toHaveBeenCalled()
    expect(screen.queryByText('Install the app')).toBeNull()
  })

  it.each(['Not now', 'Close'])('%s hides it and remembers the dismissal for 7 days', (label) => {
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'))
    const { unmount } = render(<InstallPrompt />)
    fireInstallable()
    act(() => vi.advanceTimersByTime(30_000))
    fireEvent.click(screen.getByRole('button', { name: label }))
    expect(screen.queryByText('Install the app')).toBeNull()
    expect(Number(localStorage.getItem(INSTALL_DISMISSED_KEY))).toBe(Date.now())
    unmount()

    render(<InstallPrompt />)
    vi.setSystemTime(Date.now() + DISMISS_FOR_MS - 60_000)
    fireInstallable()
    act(() => vi.advanceTimersByTime(30_000))
    expect(screen.queryByText('Install the app')).toBeNull()

    vi.setSystemTime(Date.now() + 120_000)
    fireInstallable()
    act(() => vi.advanceTimersByTime(30_000))
    expect(screen.getByText('Install the app')).toBeTruthy()
  })

  it('stays hidden when already running standalone', () => {
    standalone(true)
    render(<InstallPrompt />)
    fireInstallable()
    act(() => vi.advanceTimersByTime(60_000))
    expect(screen.queryByText('Install the app')).toBeNull()
  })
})
