// Pull requests, reviews and merges in the shapes of Gitea's API v1.
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { type IssueEdit, useInvalidateIssues } from '@/features/issues'
import type { Optional, Schema } from '@/lib/apiSchema'
import { type Commit, getPage, getText, repoApi, type User } from '@/lib/forge/api'
import { apiError, apiFetch, deleteJSON, getJSON, patchJSON, postJSON, retryUnlessNotFound } from '@/lib/http'

/** A pull request's base or head. */
export type BranchInfo = Schema<'PrBranch'>

// state is 'open' or 'closed' where the document says any string; the diff
// figures, mergeable_reason, merge_style and the moderation marks are left
// out when empty (omitempty).
export type PullRequest = Optional<
  Omit<Schema<'Pull'>, 'state'>,
  'additions' | 'deletions' | 'changed_files' | 'mergeable_reason' | 'merge_style' | 'hidden' | 'hidden_reason'
> & { state: 'open' | 'closed' }

export type ReviewState = 'APPROVED' | 'REQUEST_CHANGES' | 'COMMENT' | 'PENDING' | 'REQUEST_REVIEW' | ''

export type PullReview = Schema<'Review'>

/**
 * Gitea's PullReviewComment: position is the line in the new file,
 * original_position in the old one; commit_id the head it still describes,
 * original_commit_id the commit it was made on.
 */
export type ReviewComment = Schema<'ReviewComment'>

export type ReviewEvent = 'APPROVED' | 'REQUEST_CHANGES' | 'COMMENT'
export const REVIEW_EVENTS: ReviewEvent[] = ['COMMENT', 'APPROVED', 'REQUEST_CHANGES']

export const MERGE_STYLES = ['merge', 'squash', 'rebase', 'rebase-merge', 'fast-forward-only'] as const
export type MergeStyle = (typeof MERGE_STYLES)[number]

/** A comment on one line of the diff, before its review is submitted. */
export interface DraftComment {
  path: string
  side: 'old' | 'new'
  line: number
  body: string
}

export const pullApi = (owner: string, repo: string, number: number) => `${repoApi(owner, repo)}/pulls/${number}`

/** The query key of a repository's pull request data: rest names which (a number, then what of it). */
export const pullsKey = (owner: string, repo: string, ...rest: (string | number)[]) => ['repo', owner.toLowerCase(), repo.toLowerCase(), 'pulls', ...rest]

export function usePull(owner: string, repo: string, number: number) {
  return useQuery({ queryKey: pullsKey(owner, repo, number), queryFn: () => getJSON<PullRequest>(pullApi(owner, repo, number)), retry: retryUnlessNotFound })
}

export function usePullDiff(owner: string, repo: string, number: number, enabled: boolean) {
  return useQuery({ queryKey: pullsKey(owner, repo, number, 'diff'), queryFn: () => getText(`${pullApi(owner, repo, number)}.diff`), enabled })
}

export function usePullCommits(owner: string, repo: string, number: number, enabled: boolean) {
  return useQuery({
    queryKey: pullsKey(owner, repo, number, 'commits'),
    queryFn: async () => (await getPage<Commit>(`${pullApi(owner, repo, number)}/commits`, {}, 1, 250)).items,
    enabled,
  })
}

export function useReviews(owner: string, repo: string, number: number) {
  return useQuery({ queryKey: pullsKey(owner, repo, number, 'reviews'), queryFn: () => getJSON<PullReview[]>(`${pullApi(owner, repo, number)}/reviews`) })
}

/** The inline comments of every review that has any, in one list. */
export function useReviewComments(owner: string, repo: string, number: number, reviews: PullReview[]) {
  const withComments = reviews.filter((r) => r.comments_count > 0)
  return useQueries({
    queries: withComments.map((r) => ({
      queryKey: pullsKey(owner, repo, number, 'reviews', r.id, 'comments'),
      queryFn: () => getJSON<ReviewComment[]>(`${pullApi(owner, repo, number)}/reviews/${r.id}/comments`),
    })),
    combine: (results) => results.flatMap((res) => res.data ?? []),
  })
}

export const createPull = (owner: string, repo: string, input: { head: string; base: string; title: string; body: string }) =>
  postJSON<PullRequest>(`${repoApi(owner, repo)}/pulls`, input)

export const editPull = (owner: string, repo: string, number: number, patch: IssueEdit & { state?: 'open' | 'closed' }) =>
  patchJSON<PullRequest>(pullApi(owner, repo, number), patch)

/** Saves an edit of a pull request's title, body or assignees, as useSaveIssue does an issue's. */
export function useSavePull(owner: string, repo: string, number: number) {
  const client = useQueryClient()
  const invalidate = useInvalidateIssues(owner, repo)
  return async (patch: IssueEdit) => {
    const saved = await editPull(owner, repo, number, patch)
    client.setQueryData(pullsKey(owner, repo, number), saved)
    void invalidate()
    return saved
  }
}

/** The server's 409 on merge: git merge-tree found conflicts, in these files. */
export class MergeConflictError extends Error {
  constructor(
    message: string,
    readonly files: string[],
  ) {
    super(message)
  }
}

/**
 * Merges (maintainers only). headSha is the head the viewer saw, so a
 * branch that moved since is not merged unseen; deleteBranch asks the
 * server to delete the head branch once merged.
 */
export async function mergePull(owner: string, repo: string, number: number, style: MergeStyle, headSha: string, deleteBranch = false): Promise<void> {
  const res = await apiFetch(`${pullApi(owner, repo, number)}/merge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ Do: style, head_commit_id: headSha, ...(deleteBranch ? { delete_branch_after_merge: true } : {}) }),
  })
  if (res.status === 409) {
    // Only a conflict names files; any other 409 (not_fast_forward,
    // head_moved, stale_ref) is shown as the server's message.
    const body = (await res.clone().json().catch(() => ({}))) as { message?: string; code?: string; files?: string[] }
    if (body.code === undefined || body.code === 'merge_conflict') {
      throw new MergeConflictError(body.message ?? res.statusText, body.files ?? [])
    }
  }
  if (!res.ok) throw await apiError(res)
}

/** Sends a review, or with event PENDING keeps it as the user's pending review (seen by no one else until submitted). */
export function submitReview(owner: string, repo: string, number: number, input: { event: ReviewEvent | 'PENDING'; body: string; commitId: string; comments: DraftComment[] }) {
  return postJSON<PullReview>(`${pullApi(owner, repo, number)}/reviews`, {
    event: input.event,
    body: input.body,
    commit_id: input.commitId,
    comments: input.comments.map((c) => ({
      path: c.path,
      body: c.body,
      new_position: c.side === 'new' ? c.line : 0,
      old_position: c.side === 'old' ? c.line : 0,
    })),
  })
}

/** Submits the user's pending review with its verdict and summary. */
export function submitPendingReview(owner: string, repo: string, number: number, id: number, input: { event: ReviewEvent; body: string }) {
  return postJSON<PullReview>(`${pullApi(owner, repo, number)}/reviews/${id}`, input)
}

/** Asks people (by login) for a review: the author or writers. */
export const requestReviewers = (owner: string, repo: string, number: number, reviewers: string[]) =>
  postJSON<PullReview[]>(`${pullApi(owner, repo, number)}/requested_reviewers`, { reviewers })

/** Withdraws review requests. DELETE with a body, as Gitea takes it. */
export async function unrequestReviewers(owner: string, repo: string, number: number, reviewers: string[]): Promise<void> {
  const res = await apiFetch(`${pullApi(owner, repo, number)}/requested_reviewers`, {
    method: 'DELETE',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ reviewers }),
  })
  if (!res.ok) throw await apiError(res)
}

/** Dismisses an approval or request for changes (maintainers), with the reason. */
export const dismissReview = (owner: string, repo: string, number: number, id: number, message: string) =>
  postJSON<PullReview>(`${pullApi(owner, repo, number)}/reviews/${id}/dismissals`, { message })

/** Undoes a dismissal (maintainers). */
export const undismissReview = (owner: string, repo: string, number: number, id: number) =>
  postJSON<PullReview>(`${pullApi(owner, repo, number)}/reviews/${id}/undismissals`)

/** Deletes the user's pending review. */
export function deletePendingReview(owner: string, repo: string, number: number, id: number) {
  return deleteJSON(`${pullApi(owner, repo, number)}/reviews/${id}`)
}

/** The key a line's comments are grouped under. */
export const lineKey = (path: string, side: 'old' | 'new', line: number) => `${side}:${line}:${path}`

/** Where a review comment sits: the new side when it has a new-file line, else the old side. */
export function commentLineKey(c: ReviewComment): string {
  return c.position > 0 ? lineKey(c.path, 'new', c.position) : lineKey(c.path, 'old', c.original_position)
}

// previous_filename is left out (omitempty) unless the file was renamed.
export type ChangedFile = Optional<Schema<'ChangedFile'>, 'previous_filename'>

// Gitea's Compare, with the changed files and their patches; its commits are
// lib/forge's Commit, whose omitempty fields (files, stats, cid) are optional.
export type Comparison = Omit<Schema<'Compare'>, 'commits' | 'files'> & { commits: Commit[]; files: ChangedFile[] }

/** What head brings to base: its commits and the diff a pull request would show. */
export function useCompare(owner: string, repo: string, base: string, head: string, enabled: boolean) {
  return useQuery({
    queryKey: ['repos', owner, repo, 'compare', base, head],
    queryFn: () => getJSON<Comparison>(`${repoApi(owner, repo)}/compare/${encodeURIComponent(base)}...${encodeURIComponent(head)}`),
    enabled,
  })
}

/** The unified diff of a comparison, for the diff viewer. */
export const comparisonDiff = (c: Comparison) => c.files.map((f) => f.patch).join('')

/** Who stands where: the reviewers whose latest verdict approves, and those whose latest asks for changes. */
export interface Verdicts {
  approved: User[]
  changesRequested: User[]
}

/**
 * Each reviewer's latest verdict (approve or request changes; a comment
 * changes nothing), oldest reviews first as the API lists them. A verdict
 * dismissed since counts as none, as the chain counts approvals.
 */
export function verdictsOf(reviews: PullReview[]): Verdicts {
  const latest = new Map<string, PullReview>()
  for (const r of reviews) {
    if (r.state === 'APPROVED' || r.state === 'REQUEST_CHANGES') latest.set(r.user.login.toLowerCase(), r)
  }
  const standing = [...latest.values()].filter((r) => !r.dismissed)
  return {
    approved: standing.filter((r) => r.state === 'APPROVED').map((r) => r.user),
    changesRequested: standing.filter((r) => r.state === 'REQUEST_CHANGES').map((r) => r.user),
  }
}

/** Approvals that stand: each reviewer's latest verdict, approving. */
export const approvalsOf = (reviews: PullReview[]): number => verdictsOf(reviews).approved.length

// --- mutations: each refetches the pull request and its lists; a screen's own follow-up comes in as onSuccess, run first ---

/** Opens a pull request. */
export function useCreatePull(owner: string, repo: string, onSuccess?: (pr: PullRequest) => void) {
  return useMutation({ mutationFn: (input: { head: string; base: string; title: string; body: string }) => createPull(owner, repo, input), onSuccess })
}

/** Merges a pull request; its page is refetched whether or not it went through. */
export function useMergePull(owner: string, repo: string, number: number) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({
    mutationFn: ({ style, headSha, deleteBranch }: { style: MergeStyle; headSha: string; deleteBranch: boolean }) => mergePull(owner, repo, number, style, headSha, deleteBranch),
    onSettled: invalidate,
  })
}

/** Submits a review: the viewer's pending one (with a verdict), or a new one with its line comments (PENDING keeps it as a draft). */
export function useSubmitReview(owner: string, repo: string, number: number, onSuccess?: () => void) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({
    mutationFn: ({ pendingId, ...input }: { pendingId?: number; event: ReviewEvent | 'PENDING'; body: string; commitId: string; comments: DraftComment[] }) =>
      pendingId !== undefined && input.event !== 'PENDING' ? submitPendingReview(owner, repo, number, pendingId, { event: input.event, body: input.body }) : submitReview(owner, repo, number, input),
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

export function useDeletePendingReview(owner: string, repo: string, number: number) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({ mutationFn: (id: number) => deletePendingReview(owner, repo, number, id), onSuccess: invalidate })
}

/** Asks reviewers for a review; refetched whether or not it went through. */
export function useRequestReviewers(owner: string, repo: string, number: number, onSuccess?: () => void) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({ mutationFn: (logins: string[]) => requestReviewers(owner, repo, number, logins), onSuccess, onSettled: invalidate })
}

export function useUnrequestReviewer(owner: string, repo: string, number: number) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({ mutationFn: (login: string) => unrequestReviewers(owner, repo, number, [login]), onSettled: invalidate })
}

export function useDismissReview(owner: string, repo: string, number: number, id: number, onSuccess?: () => void) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({ mutationFn: (message: string) => dismissReview(owner, repo, number, id, message), onSuccess, onSettled: invalidate })
}

export function useUndismissReview(owner: string, repo: string, number: number, id: number) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({ mutationFn: () => undismissReview(owner, repo, number, id), onSettled: invalidate })
}
