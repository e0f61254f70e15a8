import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { Paged } from '@/components/Lists'
import { PreloadLink } from '@/components/PreloadLink'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { TicketStatusBadge } from './TicketConversation'
import { TICKET_PAGE_SIZE, useMyTickets } from './tickets'

/** "My tickets" on /help: the signed-in user's tickets with their status, paged. */
export function MyTickets() {
  const { t, i18n } = useTranslation('tickets')
  const user = useSignedInUser()
  const [page, setPage] = useState(1)
  const query = useMyTickets(page, user !== null)
  if (!user) return <EmptyState message={t('signedOutList')} />
  return (
    <Paged query={query} page={page} onPage={setPage} limit={TICKET_PAGE_SIZE} label={t('listLabel')} empty={t('empty')}>
      {(tickets) => (
        <ul className="plain-list ticket-list">
          {tickets.map((tk) => (
            <li key={tk.id}>
              <PreloadLink to={`/help/tickets/${tk.id}`}>{tk.subject}</PreloadLink> <TicketStatusBadge status={tk.status} />
              <div className="muted">
                {t('listMeta', { count: tk.replies, date: new Date(tk.updated_at).toLocaleDateString(i18n.language) })}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Paged>
  )
}
