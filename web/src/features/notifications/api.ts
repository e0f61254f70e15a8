import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { Optional, Schema } from '@/lib/apiSchema'
import { getJSON, apiFetch, apiError } from '@/lib/http'
import { getPage } from '@/lib/forge/api'

/** A notification thread as the API sends it (Gitea's NotificationThread, plus reason, actor and amount). */
export type Thread = Optional<Schema<'NotificationThread'>, 'amount' | 'reward'>

export interface ThreadFilter {
  status: 'unread' | 'all'
  participating: boolean
  /** Issue, Pull, Transfer, Reward, Proposal or Topic (a forum topic); '' for any. */
  kind: string
  /** owner/name; '' for every repository. */
  repo: string
}

export const PAGE_SIZE = 20

function listPath(repo: string) {
  return repo ? `/api/v1/repos/${repo.split('/').map(encodeURIComponent).join('/')}/notifications` : '/api/v1/notifications'
}

/** One page of the signed-in user's threads. */
export function useThreads(f: ThreadFilter, page: number) {
  return useQuery({
    queryKey: ['notifications', 'list', f, page],
    queryFn: () =>
      getPage<Thread>(
        listPath(f.repo),
        {
          all: f.status === 'all' ? 'true' : undefined,
          participating: f.participating ? 'true' : undefined,
          'subject-type': f.kind || undefined,
        },
        page,
        PAGE_SIZE,
      ),
    placeholderData: keepPreviousData,
  })
}

/** The unread count, for the badge. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: ['notifications', 'new'],
    queryFn: () => getJSON<{ new: number }>('/api/v1/notifications/new').then((r) => r.new),
    enabled,
    // The stream keeps it fresh; polling is the fallback when it cannot connect.
    refetchInterval: 60_000,
  })
}

/**
 * Follows the server's stream of the unread count (server-sent events) and
 * writes each count into the badge's query, so the badge moves within a
 * block of the event. The browser reconnects a dropped stream by itself.
 */
export function useUnreadStream(enabled: boolean) {
  const client = useQueryClient()
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    const source = new EventSource('/api/v1/notifications/stream', { withCredentials: true })
    const onCount = (e: MessageEvent<string>) => {
      try {
        const n = (JSON.parse(e.data) as { new: number }).new
        const before = client.getQueryData<number>(['notifications', 'new'])
        client.setQueryData(['notifications', 'new'], n)
        if (before !== undefined && before !== n) void client.invalidateQueries({ queryKey: ['notifications', 'list'] })
      } catch {
        // A malformed event changes nothing; the next one or the poll corrects it.
      }
    }
    source.addEventListener('count', onCount as EventListener)
    return () => {
      source.removeEventListener('count', onCount as EventListener)
      source.close()
    }
  }, [enabled, client])
}

async function mark(path: string, method: 'PATCH' | 'PUT') {
  const res = await apiFetch(path, { method })
  if (!res.ok) throw await apiError(res)
}

/** Marks one thread read, or every unread thread (of a repository when repo is set). */
export function useMarkRead() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (target: { id: number } | { repo: string }) =>
      'id' in target ? mark(`/api/v1/notifications/threads/${target.id}`, 'PATCH') : mark(listPath(target.repo), 'PUT'),
    onSettled: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  })
}
