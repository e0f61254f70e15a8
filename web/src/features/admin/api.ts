import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { TicketStatus, TicketThread, Ticket } from '@/features/help'
import { getPage } from '@/lib/forge/api'
import { deleteJSON, getJSON, patchJSON, postJSON, retryUnlessNotFound } from '@/lib/http'

// The admin console's API (internal/api admin_users.go, admin_node.go,
// tickets.go). Every route answers 404 to anyone but the node's admins.

export const PAGE_SIZE = 20

/** A user as Gitea's admin list sends it. */
export interface AdminUser {
  id: number
  login: string
  full_name: string
  email?: string
  created: string
  wallet_address: string
  two_factor_enabled: boolean
  is_admin: boolean
}

export interface AdminSession {
  id: number
  current: boolean
  createdAt: string
  lastSeenAt: string
  userAgent: string
  ip: string
}

export interface AdminToken {
  id: number
  name: string
  token_last_eight: string
  scopes: string[]
  created_at: string
}

export interface NodeHealth {
  version: string
  chain?: {
    height: number
    latest_block_time?: string
    catching_up: boolean
    peers: number
    /** Whether the network commits blocks now, as far as this node can tell; stall says why not. */
    making_blocks?: boolean
    stall?: string
    peer_list?: Peer[]
    error?: string
  }
  index?: { height: number; lag: number; stalled: boolean; stuck_at?: number; error?: string }
  replication: { enabled: boolean; repos: number; ready: number; replicating: number; failed: number; queued: number; running: number }
  disk?: { path: string; total_bytes: number; free_bytes: number; used_bytes: number }
}

/** A node this one is connected to. */
export interface Peer {
  id: string
  moniker: string
  /** id@host:port it listens on */
  address: string
  /** this node dialled it */
  outbound: boolean
  connected_seconds: number
}

export interface Setting {
  name: string
  value: string
  env?: string
}

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
