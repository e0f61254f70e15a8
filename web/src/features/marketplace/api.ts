import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, Schema, Sent } from '@/lib/apiSchema'
import { deleteJSON, getJSON, patchJSON, postJSON, retryUnlessNotFound } from '@/lib/http'
import { getPage, repoApi, type Repository } from '@/lib/forge/api'

/** A marketplace listing: a webhook recipe anyone may install into a public repository they administer. */
export type Listing = Schema<'Listing'>

/** A listing installed in a repository; hook_id is the webhook this node created for it. */
export type Install = Optional<Schema<'Install'>, 'hook_id'>

/** What the publish form sends: every field, so none is null (which on an edit means "leave it"). */
export type ListingInput = Sent<Schema<'ListingBody'>>

/** The events a listing may ask for in the form: the ones this node's webhooks deliver (Gitea's names). */
export const LISTING_EVENTS = [
  'push',
  'create',
  'delete',
  'fork',
  'repository',
  'issues',
  'issue_comment',
  'pull_request',
  'pull_request_sync',
  'pull_request_comment',
  'pull_request_review_approved',
  'pull_request_review_rejected',
  'pull_request_review_comment',
] as const

const LISTINGS = '/api/v1/marketplace/listings'

export const marketKeys = {
  all: ['marketplace'] as const,
  list: (q: string, page: number, limit: number) => ['marketplace', 'list', q, page, limit] as const,
  one: (id: string) => ['marketplace', 'listing', id] as const,
  adminRepos: ['marketplace', 'admin-repos'] as const,
}

/** A page of listings matching q, most installed first. */
export function useListings(q: string, page: number, limit: number) {
  return useQuery({
    queryKey: marketKeys.list(q, page, limit),
    queryFn: () => getPage<Listing>(LISTINGS, { q }, page, limit),
    placeholderData: keepPreviousData,
  })
}

/** One listing; a deleted or unknown one is not found. */
export function useListing(id: string) {
  return useQuery({
    queryKey: marketKeys.one(id),
    queryFn: () => getJSON<Listing>(`${LISTINGS}/${encodeURIComponent(id)}`),
    retry: retryUnlessNotFound,
  })
}

/** Publishes a listing, then refreshes the lists. */
export function usePublish() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: ListingInput) => postJSON<Listing>(LISTINGS, input),
    onSuccess: () => qc.invalidateQueries({ queryKey: marketKeys.all }),
  })
}

/** Changes the publisher's listing. */
export function useUpdate(id: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: Partial<ListingInput>) => patchJSON<Listing>(`${LISTINGS}/${id}`, input),
    onSuccess: () => qc.invalidateQueries({ queryKey: marketKeys.all }),
  })
}

/** Deletes the publisher's listing (its installs keep their webhooks). */
export function useDelete(id: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => deleteJSON(`${LISTINGS}/${id}`),
    // The lists only: the page that deleted it keeps showing it, with the outcome.
    onSuccess: () => qc.invalidateQueries({ queryKey: ['marketplace', 'list'] }),
  })
}

/**
 * The signed-in user's repositories a listing can be installed into: their
 * public ones, where they are an administrator (maintain and up).
 */
export function useAdminRepos(enabled: boolean) {
  return useQuery({
    queryKey: marketKeys.adminRepos,
    queryFn: async () => {
      const page = await getPage<Repository>('/api/v1/user/repos', {}, 1, 50)
      return page.items.filter((r) => !r.private && (r.permissions?.maintain || r.permissions?.admin))
    },
    enabled,
  })
}

/** Installs a listing into owner/repo in one step: the webhook and the chain's record. */
export function useInstall(listing: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (repo: Repository) => postJSON<Install>(`${repoApi(repo.owner.login, repo.name)}/marketplace/installs`, { listing }),
    onSuccess: () => qc.invalidateQueries({ queryKey: marketKeys.all }),
  })
}
