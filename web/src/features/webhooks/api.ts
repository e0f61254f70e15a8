import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { deleteJSON, getJSON, patchJSON, postJSON } from '@/lib/http'
import { getPage, repoApi } from '@/lib/forge/api'

/** A repository webhook as the API shows it (Gitea's Hook); the secret is never returned. */
export type Hook = Schema<'Hook'>

/** One entry of a hook's delivery log. */
export type Delivery = Schema<'Delivery'>

/** The settings a create or an edit sends (Gitea's CreateHookOption / EditHookOption). */
export interface HookSettings {
  url: string
  contentType: 'json' | 'form'
  /** Undefined keeps the current secret on an edit. */
  secret?: string
  events: string[]
  branchFilter: string
  active: boolean
}

/** The events a hook may choose, in Gitea's names: every one this node sends (internal/webhook.Events). */
export const HOOK_EVENTS = [
  'push',
  'create',
  'delete',
  'fork',
  'repository',
  'issues',
  'issue_assign',
  'issue_label',
  'issue_milestone',
  'issue_comment',
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_sync',
  'pull_request_comment',
  'pull_request_review_approved',
  'pull_request_review_rejected',
  'pull_request_review_comment',
  'pull_request_review_request',
  'release',
  'status',
] as const

export const DELIVERIES_LIMIT = 20

/**
 * Whose hooks a page manages: a repository's, or an organization's (which
 * fire for every repository it owns). Only a repository's hooks have
 * Gitea's test delivery.
 */
export interface HookScope {
  /** The API path of the hook list. */
  base: string
  key: readonly string[]
  testable: boolean
}

export const repoHooks = (owner: string, repo: string): HookScope => ({
  base: `${repoApi(owner, repo)}/hooks`,
  key: ['webhooks', 'repo', owner.toLowerCase(), repo.toLowerCase()],
  testable: true,
})

export const orgHooks = (org: string): HookScope => ({
  base: `/api/v1/orgs/${encodeURIComponent(org)}/hooks`,
  key: ['webhooks', 'org', org.toLowerCase()],
  testable: false,
})

function body(s: HookSettings) {
  const config: Record<string, string> = { url: s.url.trim(), content_type: s.contentType }
  if (s.secret !== undefined) config.secret = s.secret
  return { type: 'gitea', config, events: s.events, branch_filter: s.branchFilter.trim(), active: s.active }
}

export function useHooks(scope: HookScope) {
  return useQuery({ queryKey: [...scope.key], queryFn: () => getJSON<Hook[]>(`${scope.base}?limit=50`) })
}

export function useDeliveries(scope: HookScope, hook: number, page: number) {
  return useQuery({
    queryKey: [...scope.key, hook, 'deliveries', page],
    queryFn: () => getPage<Delivery>(`${scope.base}/${hook}/deliveries`, {}, page, DELIVERIES_LIMIT),
    placeholderData: keepPreviousData,
    // Pending deliveries change on their own: look again while any is queued.
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.state === 'pending') ? 2000 : false),
  })
}

/** The hook mutations of a scope; each refreshes its hooks and logs. */
export function useHookActions(scope: HookScope) {
  const client = useQueryClient()
  const onSuccess = () => client.invalidateQueries({ queryKey: [...scope.key] })
  const base = scope.base
  return {
    create: useMutation({ mutationFn: (s: HookSettings) => postJSON<Hook>(base, body(s)), onSuccess }),
    edit: useMutation({ mutationFn: ({ id, s }: { id: number; s: HookSettings }) => patchJSON<Hook>(`${base}/${id}`, body(s)), onSuccess }),
    remove: useMutation({ mutationFn: (id: number) => deleteJSON(`${base}/${id}`), onSuccess }),
    test: useMutation({ mutationFn: (id: number) => postJSON<void>(`${base}/${id}/tests`), onSuccess }),
    redeliver: useMutation({
      mutationFn: ({ hook, delivery }: { hook: number; delivery: number }) => postJSON<Delivery>(`${base}/${hook}/deliveries/${delivery}/redeliver`),
      onSuccess,
    }),
  }
}
