import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { useUnreadCount, useUnreadStream } from './api'
import './notifications.css'

/** The header's bell: a link to /notifications with the unread count, kept live by the server's stream. */
export function NotificationBadge() {
  // Without suspense: the header must not wait for this namespace; the bell appears once it is in.
  const { t, ready } = useTranslation('notifications', { useSuspense: false })
  useUnreadStream(true)
  const count = useUnreadCount(true).data ?? 0
  if (!ready) return null
  const label = count > 0 ? t('badge.unread', { count }) : t('badge.none')
  return (
    <PreloadLink to="/notifications" className="icon-button notification-badge" aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {count > 0 && (
        <span className="notification-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </PreloadLink>
  )
}
