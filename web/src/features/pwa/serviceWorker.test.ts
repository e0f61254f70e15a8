import { beforeAll, describe, expect, it, vi } from 'vitest'
import { initI18n } from '@/i18n/i18n'
import { promptForUpdate } from './serviceWorker'

beforeAll(() => {
  initI18n()
})

describe('service worker update', () => {
  it('asks, and on OK activates the waiting worker and reloads', () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true)
    const update = vi.fn().mockResolvedValue(undefined)
    promptForUpdate(update)
    expect(confirm).toHaveBeenCalledWith('A new version is available! Click OK to update.')
    // vite-plugin-pwa's updateSW(true) posts {type: 'SKIP_WAITING'} and reloads on controllerchange.
    expect(update).toHaveBeenCalledWith(true)
  })

  it('does nothing when the user declines', () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false)
    const update = vi.fn()
    promptForUpdate(update)
    expect(update).not.toHaveBeenCalled()
  })
})
