import { act, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { lazyScreen, retryFailedScreens } from './lazyScreen'

describe('lazyScreen', () => {
  it('loads once and shares the load between preload and render', async () => {
    const load = vi.fn().mockResolvedValue({ default: () => <p>loaded</p> })
    const s = lazyScreen(load)
    await s.preload()
    await act(async () => {
      render(
        <Suspense fallback={<p>wait</p>}>
          <s.Component />
        </Suspense>,
      )
    })
    expect(await screen.findByText('loaded')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('keeps a failed load failed until a retry is asked for, then fetches again', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk failed')).mockResolvedValue({ default: () => <p>second</p> })
    const s = lazyScreen(load)
    await expect(s.preload()).rejects.toThrow('chunk failed')
    // Re-rendering must not refetch in a loop: the failure stands.
    await expect(s.preload()).rejects.toThrow('chunk failed')
    expect(load).toHaveBeenCalledTimes(1)
    retryFailedScreens()
    await act(() => s.preload())
    expect(load).toHaveBeenCalledTimes(2)
  })
})
