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

  // A playing element fetches its file through the old worker, which then
  // never goes idle, and Chrome does not let the new one take over.
  it('on OK stops and unloads the music first; declining leaves it playing', () => {
    const audio = document.createElement('audio')
    audio.setAttribute('src', '/music/polyhymnia.mp3')
    document.body.append(audio)
    const pause = vi.spyOn(audio, 'pause').mockImplementation(() => {})
    const load = vi.spyOn(audio, 'load').mockImplementation(() => {})

    vi.spyOn(window, 'confirm').mockReturnValue(false)
    promptForUpdate(vi.fn())
    expect(pause).not.toHaveBeenCalled()
    expect(audio.getAttribute('src')).toBe('/music/polyhymnia.mp3')

    vi.spyOn(window, 'confirm').mockReturnValue(true)
    const update = vi.fn().mockResolvedValue(undefined)
    promptForUpdate(update)
    expect(pause).toHaveBeenCalled()
    expect(audio.hasAttribute('src')).toBe(false)
    expect(load).toHaveBeenCalled()
    expect(update).toHaveBeenCalledWith(true)
    audio.remove()
  })
})
