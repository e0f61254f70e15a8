import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatAge, useOldestSavedCopy } from '@/lib/savedCopy'
import { useOnline } from './OfflineBanner'

const TICK_MS = 30_000

/**
 * A line above the screen when some of its data is a saved copy from the
 * service worker's cache: how old it is, and why (offline, or the node did
 * not answer in time).
 */
export function SavedCopyNotice() {
  const { t, i18n } = useTranslation()
  const saved = useOldestSavedCopy()
  const online = useOnline()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (saved === null) return
    setNow(Date.now())
    const id = setInterval(() => setNow(Date.now()), TICK_MS)
    return () => clearInterval(id)
  }, [saved])
  if (saved === null) return null
  const age = formatAge(saved, now, i18n.resolvedLanguage ?? 'en')
  return (
    <p className="saved-copy-notice" role="status">
      {t(online ? 'offline.savedCopySlow' : 'offline.savedCopy', { age })}
    </p>
  )
}
