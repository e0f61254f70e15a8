import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Paged } from '@/components/Lists'
import { QueryState } from '@/components/QueryState'
import { Select } from '@/components/Select'
import { TicketConversation, TicketStatusBadge, type TicketStatus } from '@/features/help'
import { errorText } from '@/lib/http'
import { PAGE_SIZE, useAdminTicket, useAdminTicketActions, useAdminTickets } from './api'

const STATUSES = ['', 'open', 'answered', 'closed'] as const

/** Every ticket and contact message, filtered by status; one opens to its thread, a reply box and status changes. */
export function TicketsTab() {
  const { t, i18n } = useTranslation('admin')
  const [status, setStatus] = useState<TicketStatus | ''>('open')
  const [page, setPage] = useState(1)
  const [open, setOpen] = useState<number | null>(null)
  const query = useAdminTickets(status, page)
  if (open !== null) return <TicketDetail id={open} onBack={() => setOpen(null)} />
  return (
    <div className="stack">
      <label className="admin-filter">
        {t('tickets.filter')}{' '}
        <Select
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as TicketStatus | '')
            setPage(1)
          }}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`tickets.status.${s || 'any'}`)}
            </option>
          ))}
        </Select>
      </label>
      <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('tickets.title')} empty={t('tickets.empty')}>
        {(tickets) => (
          <ul className="plain-list admin-list">
            {tickets.map((tk) => (
              <li key={tk.id}>
                <span>
                  <Button size="sm" variant="ghost" onClick={() => setOpen(tk.id)}>
                    #{tk.id} {tk.subject}
                  </Button>{' '}
                  <TicketStatusBadge status={tk.status} />{' '}
                  <span className="muted">
                    {tk.anonymous ? t('tickets.anonymous', { email: tk.email }) : (tk.user?.login ?? tk.name)} ·{' '}
                    {t('tickets.meta', { count: tk.replies, date: new Date(tk.updated_at).toLocaleString(i18n.language) })}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Paged>
    </div>
  )
}

function TicketDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const { t } = useTranslation('admin')
  const query = useAdminTicket(id)
  const { reply, setStatus } = useAdminTicketActions(id)
  return (
    <div className="stack">
      <div>
        <Button size="sm" variant="outline" onClick={onBack}>
          {t('tickets.back')}
        </Button>
      </div>
      <QueryState query={query}>
        {(th) => (
          <>
            <h2>
              #{th.id} {th.subject}
            </h2>
            <TicketConversation
              thread={th}
              staff
              reply={reply}
              actions={
                <>
                  {(['open', 'answered', 'closed'] as const)
                    .filter((s) => s !== th.status)
                    .map((s) => (
                      <Button key={s} size="sm" variant="outline" disabled={setStatus.isPending} onClick={() => setStatus.mutate(s)}>
                        {t(`tickets.mark.${s}`)}
                      </Button>
                    ))}
                  {setStatus.isError && (
                    <span role="alert" className="field-error">
                      {errorText(setStatus.error)}
                    </span>
                  )}
                </>
              }
            />
          </>
        )}
      </QueryState>
    </div>
  )
}
