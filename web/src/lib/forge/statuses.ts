// Commit statuses (Gitea's CommitStatus and CombinedStatus): CI results
// recorded on chain, read by the commits list, the commit page and the pull
// request page.
import { useQuery } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { getJSON } from '@/lib/http'
import { repoApi, repoKeys } from './api'

export type StatusState = 'pending' | 'success' | 'error' | 'failure' | 'warning'

// status is one of StatusState where the document says any string.
export type CommitStatus = Omit<Schema<'CommitStatus'>, 'status'> & { status: StatusState }

// state: the worst of the statuses, '' when there are none (the document says any string).
export type CombinedStatus = Omit<Schema<'CombinedStatus'>, 'state' | 'statuses'> & { state: StatusState | ''; statuses: CommitStatus[] }

/** The combined status of a commit or ref: the latest status of each context. */
export function useCombinedStatus(owner: string, repo: string, ref: string, enabled = true) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'status', ref],
    queryFn: () => getJSON<CombinedStatus>(`${repoApi(owner, repo)}/commits/${encodeURIComponent(ref)}/status`),
    enabled: enabled && ref !== '',
    staleTime: 15_000,
  })
}

/** An http(s) link a status points at, or null: a link from the chain is shown only when it is a web address. */
export function safeTarget(url: string): string | null {
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null
}
