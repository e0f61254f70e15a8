import { fireEvent, render, screen } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { initI18n } from '@/i18n/i18n'
import { ScreenBoundary } from './ScreenBoundary'
import { TopLevelBoundary } from './TopLevelBoundary'

const reportError = vi.fn()
vi.mock('@/features/monitoring/monitoring', () => ({ reportError: (e: unknown) => reportError(e) }))
const reload = vi.fn()
vi.mock('./reload', () => ({ reloadPage: () => reload() }))

beforeAll(() => {
  initI18n()
})

let failing = true
function Flaky() {
  if (failing) throw new Error('render failed: secret detail')
  return <p>screen content</p>
}

describe('ScreenBoundary', () => {
  it('shows the fallback page without error details, and Try Again re-renders', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    failing = true
    render(
      <ScreenBoundary>
        <Flaky />
      </ScreenBoundary>,
    )
    expect(await screen.findByText('Oops! Something went wrong')).toBeTruthy()
    expect(screen.getByText("We're sorry for the inconvenience. An unexpected error has occurred.")).toBeTruthy()
    expect(screen.getByText(/If the problem persists, please/).textContent).toBe('If the problem persists, please contact support.')
    expect(screen.queryByText(/secret detail/)).toBeNull()
    expect(consoleError).toHaveBeenCalled()
    failing = false
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }))
    expect(await screen.findByText('screen content')).toBeTruthy()
  })

  it('reloads the page from Reload Page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    failing = true
    render(
      <ScreenBoundary>
        <Flaky />
      </ScreenBoundary>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Reload Page' }))
    expect(reload).toHaveBeenCalled()
  })
})

describe('TopLevelBoundary', () => {
  it('shows "An error occurred" and reports the error', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    failing = true
    render(
      <TopLevelBoundary>
        <Flaky />
      </TopLevelBoundary>,
    )
    expect(screen.getByRole('alert').textContent).toBe('An error occurred')
    expect(reportError).toHaveBeenCalledWith(expect.objectContaining({ message: 'render failed: secret detail' }))
  })
})
