import { act, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { initI18n } from '@/i18n/i18n'
import { lazyScreen, retryFailedScreens } from './LazyScreen'
import { screens } from './screens'

afterEach(() => {
  vi.restoreAllMocks()
})

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

  it('loads every namespace it is given before the screen renders', async () => {
    const i18n = initI18n()
    const load = vi.fn().mockResolvedValue({ default: () => <p>settings</p> })
    await lazyScreen(load, ['settings', 'auth']).preload()
    expect(i18n.hasLoadedNamespace('settings')).toBe(true)
    expect(i18n.hasLoadedNamespace('auth')).toBe(true)
  })

  it('fetches the namespaces in parallel with the chunk, and is ready only when all are in', async () => {
    const i18n = initI18n()
    let namespacesLoaded!: () => void
    const loadNamespaces = vi.spyOn(i18n, 'loadNamespaces').mockImplementation(
      () =>
        new Promise<void>((resolve) => {
          namespacesLoaded = resolve
        }),
    )
    const load = vi.fn().mockResolvedValue({ default: () => <p>ready</p> })
    let ready = false
    const preloaded = lazyScreen(load, ['settings', 'auth'])
      .preload()
      .then(() => {
        ready = true
      })
    // Both start at once: one loadNamespaces call for the two namespaces, beside the chunk.
    expect(load).toHaveBeenCalledTimes(1)
    expect(loadNamespaces).toHaveBeenCalledTimes(1)
    expect(loadNamespaces).toHaveBeenCalledWith(['settings', 'auth'])
    await new Promise((r) => setTimeout(r, 0))
    expect(ready).toBe(false)
    namespacesLoaded()
    await preloaded
    expect(ready).toBe(true)
  })

  it('still takes a single namespace, and none', async () => {
    const i18n = initI18n()
    const loadNamespaces = vi.spyOn(i18n, 'loadNamespaces')
    const load = vi.fn().mockResolvedValue({ default: () => <p>one</p> })
    await lazyScreen(load, 'home').preload()
    expect(loadNamespaces).toHaveBeenCalledWith(['home'])
    expect(i18n.hasLoadedNamespace('home')).toBe(true)
    await lazyScreen(load).preload()
    expect(loadNamespaces).toHaveBeenCalledTimes(1)
  })

  it('loads the settings screen with both of the namespaces it uses', async () => {
    const i18n = initI18n()
    const loadNamespaces = vi.spyOn(i18n, 'loadNamespaces').mockResolvedValue(undefined)
    await screens.settings.preload()
    expect(loadNamespaces).toHaveBeenCalledWith(['settings', 'auth'])
  })
})
