import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { TicketStatus, TicketThread, Ticket } from '@/features/help'
import type { Optional, Schema } from '@/lib/apiSchema'
import { getPage } from '@/lib/forge/api'
import { deleteJSON, getJSON, patchJSON, postJSON, retryUnlessNotFound } from '@/lib/http'

// The admin console's API (internal/api admin_users.go, admin_node.go,
// tickets.go). Every route answers 404 to anyone but the node's admins.

export const PAGE_SIZE = 20

/** A user as Gitea's admin list sends it. */
export type AdminUser = Optional<Schema<'User'>, 'email' | 'hidden' | 'hidden_reason' | 'followed_by_me'>

export type AdminSession = Schema<'Session'>

export type AdminToken = Schema<'Token'>

/** The node's health; the server leaves out what it cannot tell (omitempty). */
export type NodeHealth = Optional<Omit<Schema<'AdminNode'>, 'chain' | 'index'>, 'disk'> & {
  chain?: Optional<Schema<'ChainHealth'>, 'latest_block_time' | 'stall' | 'error'>
  index?: Optional<Schema<'IndexHealth'>, 'stuck_at' | 'error'>
}

/** A node this one is connected to. */
export type Peer = Schema<'Peer'>

export type Setting = Optional<Schema<'Setting'>, 'env'>

const seg = encodeURIComponent

export function useAdminUsers(page: number) {
  return useQuery({
    queryKey: ['admin', 'users', page],
    queryFn: () => getPage<AdminUser>('/api/v1/admin/users', {}, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: retryUnlessNotFound,
  })
}

export function useAdminSessions(login: string) {
  return useQuery({
    queryKey: ['admin', 'sessions', login],
    queryFn: () => getJSON<AdminSession[]>(`/api/v1/admin/users/${seg(login)}/sessions`, { cache: 'no-store' }),
  })
}

export function useAdminTokens(login: string) {
  return useQuery({
    queryKey: ['admin', 'tokens', login],
    queryFn: () => getJSON<AdminToken[]>(`/api/v1/admin/users/${seg(login)}/tokens`, { cache: 'no-store' }),
  })
}

/** Revoke a session or a token: the user's next request with it is refused. */
export function useRevoke(kind: 'sessions' | 'tokens', login: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => deleteJSON(`/api/v1/admin/${kind}/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', kind, login] }),
  })
}

/** One page of tickets, of one status or ('') any. */
export function useAdminTickets(status: TicketStatus | '', page: number) {
  return useQuery({
    queryKey: ['admin', 'tickets', status, page],
    queryFn: () => getPage<Ticket>('/api/v1/admin/tickets', { status }, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  })
}

export function useAdminTicket(id: number) {
  return useQuery({
    queryKey: ['admin', 'ticket', id],
    queryFn: () => getJSON<TicketThread>(`/api/v1/admin/tickets/${id}`),
    retry: retryUnlessNotFound,
  })
}

/** Answer a ticket (it becomes answered and its user is notified) or set its status. */
export function useAdminTicketActions(id: number) {
  const qc = useQueryClient()
  const done = (th: TicketThread) => {
    qc.setQueryData(['admin', 'ticket', id], th)
    void qc.invalidateQueries({ queryKey: ['admin', 'tickets'] })
  }
  return {
    reply: useMutation({ mutationFn: (body: string) => postJSON<TicketThread>(`/api/v1/admin/tickets/${id}/replies`, { body }), onSuccess: done }),
    setStatus: useMutation({ mutationFn: (status: TicketStatus) => patchJSON<TicketThread>(`/api/v1/admin/tickets/${id}`, { status }), onSuccess: done }),
  }
}

export function useNodeHealth() {
  return useQuery({
    queryKey: ['admin', 'node'],
    queryFn: () => getJSON<NodeHealth>('/api/v1/admin/node', { cache: 'no-store' }),
    refetchInterval: 15_000,
  })
}

export function useSettings() {
  return useQuery({ queryKey: ['admin', 'settings'], queryFn: () => getJSON<Setting[]>('/api/v1/admin/settings') })
}
