import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { HIDDEN_MARKER } from './api'
import './moderation.css'

/** Content this node's moderators hid: the notice with their reason. */
export function HiddenNotice({ reason }: { reason?: string }) {
  const { t } = useTranslation('moderation')
  return (
    <p className="hidden-notice" role="note">
      <strong>{t('hidden.notice')}</strong>
      {reason ? ` ${t('hidden.reason', { reason })}` : ''}
    </p>
  )
}

/**
 * Shows the notice for hidden content and, in its place, nothing more: the
 * API sends the marker instead of the text to everyone but the node's
 * admins, who still get the content (children) under the notice.
 */
export function HiddenContent({ item, children }: { item: { hidden?: boolean; hidden_reason?: string; body?: string; description?: string }; children: ReactNode }) {
  if (!item.hidden) return children
  const masked = item.body === HIDDEN_MARKER || item.description === HIDDEN_MARKER
  return (
    <>
      <HiddenNotice reason={item.hidden_reason} />
      {!masked && children}
    </>
  )
}
