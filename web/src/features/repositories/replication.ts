// Where a repository's git data is: GET /repos/{o}/{r}/replication, asked
// of this node (same origin, with the session, so a private repository's
// readers get "private") and of every other registered node (cross-origin:
// the endpoint allows any origin; no credentials and no custom headers, so
// no preflight).
import { useQuery } from '@tanstack/react-query'
import { NotFoundError } from '@/components/QueryState'
import type { Optional, Schema } from '@/lib/apiSchema'
import { apiError, apiFetch } from '@/lib/http'
import { repoApi, repoKeys } from '@/lib/forge/api'

export type ReplicaStateName = 'ready' | 'replicating' | 'failed' | 'not_seeded' | 'private'

// One node's answer: how it holds the repository. state is one of
// ReplicaStateName where the document says any string; error is left out
// (omitempty) unless the last attempt failed.
export type ReplicaState = Optional<Omit<Schema<'ReplicaState'>, 'state'>, 'error'> & { state: ReplicaStateName }

/** How long a node has to answer before it counts as unreachable. */
export const NODE_TIMEOUT_MS = 5000
/** How often this node's own replication is asked again while the git data is on its way. */
export const REPLICATING_POLL_MS = 2000
/** How often another node is asked again while it replicates. */
const REMOTE_POLL_MS = 10_000

/** A node that did not answer within NODE_TIMEOUT_MS. */
export class NodeTimeoutError extends Error {}

/** The states after which the answer changes on its own (the replicator works, or retries). */
export const isPending = (s: ReplicaStateName | undefined) => s === 'replicating' || s === 'failed'

/** An origin from a URL, or '' when it is not one. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

/** Runs request with a signal that aborts when outer does or after ms. */
async function withTimeout<T>(ms: number, outer: AbortSignal | undefined, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    ctl.abort()
  }, ms)
  const stop = () => ctl.abort()
  outer?.addEventListener('abort', stop)
  try {
    return await request(ctl.signal)
  } catch (e) {
    if (timedOut) throw new NodeTimeoutError(`no answer within ${ms} ms`)
    throw e
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', stop)
  }
}

/**
 * Asks one node. origin undefined is this node (a relative URL, the session
 * along). A node that does not know the repository answers 404: null.
 */
export async function fetchReplication(owner: string, repo: string, origin: string | undefined, signal?: AbortSignal): Promise<ReplicaState | null> {
  const path = `${repoApi(owner, repo)}/replication`
  return withTimeout(NODE_TIMEOUT_MS, signal, async (s) => {
    const res =
      origin === undefined
        ? await apiFetch(path, { signal: s })
        : await fetch(`${origin}${path}`, { signal: s, credentials: 'omit', headers: { Accept: 'application/json' } })
    if (res.status === 404) return null
    if (!res.ok) throw await apiError(res)
    return (await res.json()) as ReplicaState
  })
}

/**
 * A node's replication of owner/repo: this node's when origin is undefined,
 * asked again every 2 s while it replicates, another node's every 10 s.
 * untilReady keeps asking this node every 2 s, through failures, until it
 * answers ready. Not retried: a node that does not answer in time is shown
 * as unreachable.
 */
export function useReplication(owner: string, repo: string, origin?: string, { untilReady = false } = {}) {
  const self = origin === undefined
  return useQuery({
    queryKey: self ? [...repoKeys.repo(owner, repo), 'replication'] : ['replication', origin, owner.toLowerCase(), repo.toLowerCase()],
    queryFn: async ({ signal }) => {
      const state = await fetchReplication(owner, repo, origin, signal)
      // This node not knowing a repository it just showed is a missing page, not "not seeding".
      if (self && state === null) throw new NotFoundError(`not found: ${owner}/${repo}`)
      return state
    },
    retry: false,
    refetchInterval: (query) => {
      const state = query.state.data?.state
      if (untilReady && self) return state === 'ready' ? false : REPLICATING_POLL_MS
      return isPending(state) ? (self ? REPLICATING_POLL_MS : REMOTE_POLL_MS) : false
    },
  })
}
