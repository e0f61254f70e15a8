import i18n from 'i18next'

export type UpdateServiceWorker = (reloadPage?: boolean) => Promise<void>

/**
 * What to do when a new version is waiting: ask, and if the user agrees the
 * waiting worker gets SKIP_WAITING and the page reloads once it takes over.
 */
export function promptForUpdate(update: UpdateServiceWorker): void {
  if (window.confirm(i18n.t('pwa.updateAvailable'))) void update(true)
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
