import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { useUnreadMessages } from './api'
import './badge.css'

/** The header's envelope: a link to /messages with the number of unread messages. */
export function MessagesBadge() {
  // Without suspense: the header must not wait for this namespace; the envelope appears once it is in.
  const { t, ready } = useTranslation('messages', { useSuspense: false })
  const count = useUnreadMessages().data?.unread ?? 0
  if (!ready) return null
  const label = count > 0 ? t('badge.unread', { count }) : t('badge.none')
  return (
    <PreloadLink to="/messages" className="icon-button messages-badge" aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="m3 7 9 6 9-6" />
      </svg>
      {count > 0 && (
        <span className="messages-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </PreloadLink>
  )
}
