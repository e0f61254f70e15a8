import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { getPage } from '@/lib/forge/api'
import { getJSON, patchJSON, postJSON, retryUnlessNotFound } from '@/lib/http'

// A support ticket as /api/v1/user/tickets and /api/v1/admin/tickets send it:
// status is one of TicketStatus where the document says any string, and the
// sender's account (admin views only) is left out otherwise (omitempty).
export type Ticket = Optional<Omit<Schema<'Ticket'>, 'status'>, 'user'> & { status: TicketStatus }

export type TicketStatus = 'open' | 'answered' | 'closed'

// author: who wrote it, left out (omitempty) but in admin views.
export type TicketReply = Optional<Schema<'TicketReply'>, 'author'>

export type TicketThread = Ticket & { thread: TicketReply[] }

export const TICKET_PAGE_SIZE = 10

/** The server's limit on a reply (internal/support MaxMessage). */
export const MAX_REPLY = 5000

/** One page of the signed-in user's tickets, newest activity first. */
export function useMyTickets(page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['tickets', 'mine', page],
    queryFn: () => getPage<Ticket>('/api/v1/user/tickets', {}, page, TICKET_PAGE_SIZE),
    placeholderData: keepPreviousData,
    enabled,
  })
}

/** One of the user's tickets with its thread; someone else's is not found. */
export function useMyTicket(id: string) {
  return useQuery({
    queryKey: ['tickets', 'mine', 'one', id],
    queryFn: () => getJSON<TicketThread>(`/api/v1/user/tickets/${encodeURIComponent(id)}`),
    retry: retryUnlessNotFound,
  })
}

/** Reply to or change the status of the user's ticket; the answer is the new thread. */
export function useMyTicketActions(id: string) {
  const qc = useQueryClient()
  const done = (th: TicketThread) => {
    qc.setQueryData(['tickets', 'mine', 'one', id], th)
    void qc.invalidateQueries({ queryKey: ['tickets', 'mine'], exact: false })
  }
  const path = `/api/v1/user/tickets/${encodeURIComponent(id)}`
  return {
    reply: useMutation({ mutationFn: (body: string) => postJSON<TicketThread>(`${path}/replies`, { body }), onSuccess: done }),
    setStatus: useMutation({ mutationFn: (status: 'open' | 'closed') => patchJSON<TicketThread>(path, { status }), onSuccess: done }),
  }
}
