// Milestones, reactions, the timeline, pins and subscriptions of issues and
// pull requests, in the shapes of Gitea's API v1.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, RequestBody, Schema, Sent } from '@/lib/apiSchema'
import { getPage, repoApi } from '@/lib/forge/api'
import { apiError, apiFetch, deleteJSON, getJSON, patchJSON, postJSON, putJSON, retryUnlessNotFound } from '@/lib/http'
import { type Comment, type CommentParts, type Issue, issueApi, issueKeys, type Milestone } from './api'

export type { Milestone }

export type MilestoneState = 'open' | 'closed' | 'all'

const milestoneKeys = {
  all: (owner: string, repo: string) => ['repo', owner.toLowerCase(), repo.toLowerCase(), 'milestones'] as const,
}

/** Progress of a milestone: the share of its issues that are closed, 0 to 100. */
export function progress(m: Pick<Milestone, 'open_issues' | 'closed_issues'>): number {
  const total = m.open_issues + m.closed_issues
  return total === 0 ? 0 : Math.round((m.closed_issues * 100) / total)
}

export function useMilestones(owner: string, repo: string, state: MilestoneState, page: number, limit: number) {
  return useQuery({
    queryKey: [...milestoneKeys.all(owner, repo), state, page, limit],
    queryFn: () => getPage<Milestone>(`${repoApi(owner, repo)}/milestones`, { state }, page, limit),
    placeholderData: keepPreviousData,
    retry: retryUnlessNotFound,
  })
}

/** Every open milestone, for a picker (the server's largest page). */
export function useOpenMilestones(owner: string, repo: string, enabled: boolean) {
  return useQuery({
    queryKey: [...milestoneKeys.all(owner, repo), 'picker'],
    queryFn: () => getJSON<Milestone[]>(`${repoApi(owner, repo)}/milestones?state=open&limit=100`),
    enabled,
  })
}

/** Every milestone, open and closed, for the list's filter (the server's largest page). */
export function useAllMilestones(owner: string, repo: string) {
  return useQuery({
    queryKey: [...milestoneKeys.all(owner, repo), 'filter'],
    queryFn: () => getJSON<Milestone[]>(`${repoApi(owner, repo)}/milestones?state=all&limit=100`),
  })
}

export function useMilestone(owner: string, repo: string, id: string) {
  return useQuery({
    queryKey: [...milestoneKeys.all(owner, repo), 'one', id],
    queryFn: () => getJSON<Milestone>(`${repoApi(owner, repo)}/milestones/${encodeURIComponent(id)}`),
    retry: retryUnlessNotFound,
  })
}

/** The issues and pull requests filed under a milestone, open and closed. */
export function useMilestoneIssues(owner: string, repo: string, milestone: number, page: number, limit: number) {
  return useQuery({
    queryKey: [...issueKeys.all(owner, repo), 'milestone', milestone, page, limit],
    queryFn: () => getPage<Issue>(`${repoApi(owner, repo)}/issues`, { state: 'all', milestones: String(milestone) }, page, limit),
    placeholderData: keepPreviousData,
  })
}

// The title is always sent; the rest only when set (due_on absent for none),
// and state is one of these where the document says any string.
export type MilestoneInput = Sent<RequestBody<'createMilestone'>, 'title'> &
  Partial<Sent<RequestBody<'createMilestone'>, 'description' | 'due_on'>> & { state?: 'open' | 'closed' }

export const createMilestone = (owner: string, repo: string, input: MilestoneInput) => postJSON<Milestone>(`${repoApi(owner, repo)}/milestones`, input)
export const editMilestone = (owner: string, repo: string, id: number, input: Partial<MilestoneInput>) =>
  patchJSON<Milestone>(`${repoApi(owner, repo)}/milestones/${id}`, input)
export const deleteMilestone = (owner: string, repo: string, id: number) => deleteJSON(`${repoApi(owner, repo)}/milestones/${id}`)

/** Files an issue (or pull request) under a milestone; 0 takes it out. */
export const setIssueMilestone = (owner: string, repo: string, number: number, milestone: number) =>
  patchJSON<Issue>(issueApi(owner, repo, number), { milestone })

/** Invalidates what a milestone change touches: the repository's issues and milestones. */
export function useInvalidateRepo(owner: string, repo: string) {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: ['repo', owner.toLowerCase(), repo.toLowerCase()] })
}

// --- reactions ---

export const REACTIONS = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'] as const
export type ReactionKind = (typeof REACTIONS)[number]

export const REACTION_EMOJI: Record<ReactionKind, string> = {
  '+1': '👍',
  '-1': '👎',
  laugh: '😄',
  hooray: '🎉',
  confused: '😕',
  heart: '❤️',
  rocket: '🚀',
  eyes: '👀',
}

export type Reaction = Schema<'Reaction'>

/** Where reactions are: an issue (by number) or a comment (by id). */
export type ReactionTarget = { kind: 'issue'; number: number } | { kind: 'comment'; id: number }

export function reactionsApi(owner: string, repo: string, target: ReactionTarget): string {
  return target.kind === 'issue' ? `${issueApi(owner, repo, target.number)}/reactions` : `${repoApi(owner, repo)}/issues/comments/${target.id}/reactions`
}

export function useReactions(owner: string, repo: string, target: ReactionTarget) {
  return useQuery({
    queryKey: ['repo', owner.toLowerCase(), repo.toLowerCase(), 'reactions', target.kind, target.kind === 'issue' ? target.number : target.id],
    queryFn: () => getJSON<Reaction[]>(reactionsApi(owner, repo, target)),
  })
}

export async function setReaction(owner: string, repo: string, target: ReactionTarget, content: ReactionKind, on: boolean): Promise<void> {
  const res = await apiFetch(reactionsApi(owner, repo, target), {
    method: on ? 'POST' : 'DELETE',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  })
  if (!res.ok) throw await apiError(res)
}

/** Counts of each kind, in Gitea's order, with whether the viewer is among them. */
export function tally(list: Reaction[], viewer: string | undefined): { content: ReactionKind; count: number; mine: boolean; users: string[] }[] {
  const me = viewer?.toLowerCase()
  return REACTIONS.map((content) => {
    const of = list.filter((r) => r.content === content)
    return { content, count: of.length, mine: of.some((r) => r.user.login.toLowerCase() === me), users: of.map((r) => r.user.login) }
  }).filter((r) => r.count > 0)
}

// --- comments by id ---

export const editComment = (owner: string, repo: string, id: number, body: string) => patchJSON<Comment>(`${repoApi(owner, repo)}/issues/comments/${id}`, { body })
export const deleteComment = (owner: string, repo: string, id: number) => deleteJSON(`${repoApi(owner, repo)}/issues/comments/${id}`)

// --- the timeline ---

// body_html, the moderation marks and a push's commits are left out when empty
// (omitempty). The timeline sends no signer or delegation.
export type TimelineEvent = Optional<Schema<'Timeline'>, 'body_html' | 'hidden' | 'hidden_reason' | 'commits'>

export function useTimeline(owner: string, repo: string, number: number) {
  return useQuery({
    queryKey: [...issueKeys.one(owner, repo, number), 'timeline'],
    queryFn: () => getJSON<TimelineEvent[]>(`${issueApi(owner, repo, number)}/timeline`),
  })
}

/** A comment of the timeline as the comment cards show it. */
export function asComment(e: TimelineEvent): CommentParts {
  return { id: e.id, user: e.user, body: e.body, body_html: e.body_html, created_at: e.created_at, updated_at: e.updated_at, hidden: e.hidden, hidden_reason: e.hidden_reason }
}

// --- pins and subscriptions ---

export function usePinned(owner: string, repo: string) {
  return useQuery({
    queryKey: [...issueKeys.all(owner, repo), 'pinned'],
    queryFn: () => getJSON<Issue[]>(`${repoApi(owner, repo)}/issues/pinned`),
  })
}

export async function setPinned(owner: string, repo: string, number: number, on: boolean): Promise<void> {
  if (on) await postJSON<void>(`${issueApi(owner, repo, number)}/pin`)
  else await deleteJSON(`${issueApi(owner, repo, number)}/pin`)
}

export function useSubscription(owner: string, repo: string, number: number, enabled: boolean) {
  return useQuery({
    queryKey: [...issueKeys.one(owner, repo, number), 'subscription'],
    queryFn: () => getJSON<{ subscribed: boolean }>(`${issueApi(owner, repo, number)}/subscriptions/check`),
    enabled,
  })
}

export async function setSubscribed(owner: string, repo: string, number: number, user: string, on: boolean): Promise<void> {
  const path = `${issueApi(owner, repo, number)}/subscriptions/${encodeURIComponent(user)}`
  if (on) await putJSON<void>(path, undefined)
  else await deleteJSON(path)
}

// --- mutations: each refetches what it changed; a screen's own follow-up comes in as onSuccess, run first ---

/** Creates a milestone. */
export function useCreateMilestone(owner: string, repo: string, onSuccess?: () => void) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({
    mutationFn: (input: MilestoneInput) => createMilestone(owner, repo, input),
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

/** Changes a milestone (closes or reopens it). */
export function useEditMilestone(owner: string, repo: string, id: number) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: (input: Partial<MilestoneInput>) => editMilestone(owner, repo, id, input), onSuccess: () => invalidate() })
}

export function useDeleteMilestone(owner: string, repo: string, id: number) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: () => deleteMilestone(owner, repo, id), onSuccess: () => invalidate() })
}

/** Files an issue under a milestone (0: none). */
export function useSetIssueMilestone(owner: string, repo: string, number: number) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: (milestone: number) => setIssueMilestone(owner, repo, number, milestone), onSuccess: () => invalidate() })
}

export function useSetPinned(owner: string, repo: string, number: number) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: (on: boolean) => setPinned(owner, repo, number, on), onSuccess: () => invalidate() })
}

/** Subscribes the user to an issue's news, or not; then refetches the subscription. */
export function useSetSubscribed(owner: string, repo: string, number: number, user: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (on: boolean) => setSubscribed(owner, repo, number, user, on),
    onSuccess: () => client.invalidateQueries({ queryKey: [...issueKeys.one(owner, repo, number), 'subscription'] }),
  })
}

/** Adds or takes back a reaction, then refetches the reactions. */
export function useSetReaction(owner: string, repo: string, target: ReactionTarget, onSuccess?: () => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ content, on }: { content: ReactionKind; on: boolean }) => setReaction(owner, repo, target, content, on),
    onSuccess: () => {
      onSuccess?.()
      return client.invalidateQueries({ queryKey: ['repo', owner.toLowerCase(), repo.toLowerCase(), 'reactions', target.kind, target.kind === 'issue' ? target.number : target.id], exact: true })
    },
  })
}

export function useEditComment(owner: string, repo: string, id: number, onSuccess?: () => void) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({
    mutationFn: (body: string) => editComment(owner, repo, id, body),
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

export function useDeleteComment(owner: string, repo: string, id: number) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: () => deleteComment(owner, repo, id), onSuccess: () => invalidate() })
}
