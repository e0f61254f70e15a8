import i18n from 'i18next'

export type UpdateServiceWorker = (reloadPage?: boolean) => Promise<void>

/**
 * What to do when a new version is waiting: ask, and if the user agrees the
 * waiting worker gets SKIP_WAITING and the page reloads once it takes over.
 */
export function promptForUpdate(update: UpdateServiceWorker): void {
  if (!window.confirm(i18n.t('pwa.updateAvailable'))) return
  stopMedia()
  void update(true)
}

/**
 * Stops and unloads the page's audio and video before the new worker takes
 * over. Chrome activates it only once the old worker has no work, and a
 * playing element fetches its file range by range through that worker:
 * the music kept it busy, and the update waited for its idle timeout (30 s
 * at least). The page reloads right after, so nothing is lost.
 */
function stopMedia(): void {
  for (const media of document.querySelectorAll<HTMLMediaElement>('audio, video')) {
    media.pause()
    media.removeAttribute('src')
    media.load()
  }
}

/** Registers /sw.js with scope /. A failure is only logged. */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  const { registerSW } = await import('virtual:pwa-register')
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => promptForUpdate(update),
    onRegisterError: (err: unknown) => console.error('Service worker registration failed', err),
  })
}
