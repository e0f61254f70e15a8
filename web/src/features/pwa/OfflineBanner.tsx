import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange)
  window.addEventListener('offline', onChange)
  return () => {
    window.removeEventListener('online', onChange)
    window.removeEventListener('offline', onChange)
  }
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true)
}

/** Bottom-right notice, shown only while the browser is offline. */
export function OfflineBanner() {
  const { t } = useTranslation()
  if (useOnline()) return null
  return (
    <div className="offline-banner" role="status" aria-live="polite">
      <strong>{t('offline.title')}</strong>
      <span>{t('offline.description')}</span>
    </div>
  )
}
