import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { deleteJSON, getJSON, postJSON } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

/** What a report names (forum_post: a reply in a forum topic, named by its id). */
export const KINDS = ['user', 'repository', 'issue', 'comment', 'forum_post'] as const
export type ReportKind = (typeof KINDS)[number]

/** The categories a report picks from (the server's moderation.Reasons). */
export const REASONS = ['spam', 'abuse', 'illegal', 'other'] as const
export type ReportReason = (typeof REASONS)[number]

/** The most characters a report's detail may hold (moderation.MaxDetail). */
export const MAX_DETAIL = 2000
/** The most characters of a moderator's reason (moderation.MaxReason). */
export const MAX_REASON = 500

/** The text the API puts in place of hidden content for everyone but the node's admins. */
export const HIDDEN_MARKER = "[hidden by this node's moderators]"

/** A report as the API sends it. */
export type Report = Optional<Schema<'Report'>, 'resolved_by' | 'resolved_at'>

export interface QueueFilter {
  status: 'open' | 'resolved'
  /** '' for every kind. */
  kind: '' | ReportKind
}

export type ModAction = 'dismiss' | 'hide' | 'suspend'

export const PAGE_SIZE = 20

/** Whether the signed-in user is one of the node's moderators (its admins: is_admin of GET /user). */
export function useIsModerator(enabled: boolean) {
  return useQuery({
    queryKey: ['moderation', 'self'],
    queryFn: () => getJSON<{ is_admin?: boolean }>('/api/v1/user').then((u) => u.is_admin === true),
    enabled,
  })
}

/** One page of the signed-in user's own reports. */
export function useMyReports(page: number) {
  return useQuery({
    queryKey: ['moderation', 'mine', page],
    queryFn: () => getPage<Report>('/api/v1/user/reports', {}, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  })
}

/** One page of the moderators' queue. */
export function useQueue(f: QueueFilter, page: number) {
  return useQuery({
    queryKey: ['moderation', 'queue', f, page],
    queryFn: () => getPage<Report>('/api/v1/admin/reports', { status: f.status, kind: f.kind || undefined }, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  })
}

/** A moderator's action on a report; reason is shown to others (hide, suspend) or kept as a note (dismiss). */
export function useModerate() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: number; action: ModAction; reason: string }) =>
      postJSON<Report>(`/api/v1/admin/reports/${id}/${action}`, { reason }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['moderation'] }),
  })
}

/** Files a report. */
export function useFileReport() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (r: { kind: ReportKind; target: string; reason: ReportReason; detail: string }) => postJSON<Report>('/api/v1/reports', r),
    onSuccess: () => client.invalidateQueries({ queryKey: ['moderation', 'mine'] }),
  })
}

/** An item hidden on this node. */
export type HiddenItem = Schema<'Hidden'>

/** An account suspended from writing through this node. */
export type Suspension = Schema<'Suspension'>

/** One page of the hidden items. */
export function useHiddenItems(page: number) {
  return useQuery({
    queryKey: ['moderation', 'hidden', page],
    queryFn: () => getPage<HiddenItem>('/api/v1/admin/hidden', {}, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  })
}

/** The suspended accounts. */
export function useSuspensions() {
  return useQuery({ queryKey: ['moderation', 'suspensions'], queryFn: () => getJSON<Suspension[]>('/api/v1/admin/suspensions') })
}

/** Shows a hidden item again. */
export function useUnhide() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (h: HiddenItem) => deleteJSON(`/api/v1/admin/hidden/${encodeURIComponent(h.kind)}/${encodeURIComponent(h.target)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['moderation'] }),
  })
}

/** Lets a suspended account write through this node again. */
export function useLift() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (address: string) => deleteJSON(`/api/v1/admin/suspensions/${encodeURIComponent(address)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['moderation'] }),
  })
}
