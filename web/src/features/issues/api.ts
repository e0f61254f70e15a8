// Issues, comments and labels in the shapes of Gitea's API v1, plus dForge's
// state_reason (closed as completed or not planned) and body_html.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, RequestBody, Schema, Sent } from '@/lib/apiSchema'
import { getPage, repoApi, type User } from '@/lib/forge/api'
import { useRenderedMarkdown } from '@/lib/markdown'
import { getJSON, patchJSON, postJSON, putJSON, retryUnlessNotFound } from '@/lib/http'

export type Label = Schema<'Label'>

/** Gitea's Milestone. */
export type Milestone = Schema<'Milestone'>

export type StateReason = 'completed' | 'not_planned' | 'reopened' | ''

// state and state_reason are kept to these values where the document says any
// string; hidden and hidden_reason are left out (omitempty) unless this node's
// moderators hid it.
export type Issue = Optional<Omit<Schema<'Issue'>, 'state' | 'state_reason'>, 'hidden' | 'hidden_reason'> & {
  state: 'open' | 'closed'
  state_reason: StateReason
}

// hidden and hidden_reason: left out (omitempty) as an issue's are.
export type Comment = Optional<Schema<'Comment'>, 'hidden' | 'hidden_reason'>

// What an issue's actions, labels, milestone and pin read: the parts a pull
// request shares with its issue, from which the pull request page builds them.
export type IssueParts = Pick<Issue, 'number' | 'user' | 'state' | 'labels' | 'milestone' | 'pin_order' | 'comments'> & {
  pull_request?: Pick<Schema<'PullMeta'>, 'merged' | 'merged_at'> | null
}

// What a comment card reads: the parts a timeline's comment event shares with
// a comment (asComment), the author as lib/forge's User; the timeline sends no
// signer or delegation.
export type CommentParts = Pick<Comment, 'id' | 'body' | 'created_at' | 'updated_at'> &
  Partial<Pick<Comment, 'body_html' | 'hidden' | 'hidden_reason' | 'signer' | 'delegation'>> & { user: User }

export type IssueStateFilter = 'open' | 'closed' | 'all'

export const issueApi = (owner: string, repo: string, number: number | string) => `${repoApi(owner, repo)}/issues/${encodeURIComponent(String(number))}`

export const issueKeys = {
  all: (owner: string, repo: string) => ['repo', owner.toLowerCase(), repo.toLowerCase(), 'issues'] as const,
  one: (owner: string, repo: string, number: number) => ['repo', owner.toLowerCase(), repo.toLowerCase(), 'issues', number] as const,
}

/** The orders a list takes, by the API's names (newest is its default). */
export const ISSUE_SORTS = ['newest', 'oldest', 'mostcomment', 'recentupdate'] as const
export type IssueSort = (typeof ISSUE_SORTS)[number]

export interface IssueFilter {
  state: IssueStateFilter
  /** Issues (the default) or pull requests: both lists read the repository's issue route, which filters alike. */
  type?: 'issues' | 'pulls'
  q?: string
  /** Label names, comma-separated: an issue must carry every one. */
  labels?: string
  /** A milestone's name. */
  milestone?: string
  /** Usernames: who opened it, and who it is assigned to. */
  author?: string
  assignee?: string
  sort?: IssueSort
}

/** The query parameters of the repository issue route for f (Gitea's names; sort is dForge's). */
export function issueListParams(f: IssueFilter): Record<string, string> {
  const params: Record<string, string> = { state: f.state, type: f.type ?? 'issues' }
  const set = (k: string, v: string | undefined) => {
    if (v) params[k] = v
  }
  set('q', f.q)
  set('labels', f.labels)
  set('milestones', f.milestone)
  set('created_by', f.author)
  set('assigned_by', f.assignee)
  set('sort', f.sort === 'newest' ? undefined : f.sort)
  return params
}

export function useIssues(owner: string, repo: string, filter: IssueFilter, page: number, limit: number) {
  const params = issueListParams(filter)
  return useQuery({
    queryKey: [...issueKeys.all(owner, repo), 'list', params, page, limit],
    queryFn: () => getPage<Issue>(`${repoApi(owner, repo)}/issues`, params, page, limit),
    placeholderData: keepPreviousData,
    retry: retryUnlessNotFound,
  })
}

/** The people issues can be assigned to (Gitea's assignees: the owner and collaborators), to suggest in the list's filters. */
export function useAssignees(owner: string, repo: string) {
  return useQuery({
    queryKey: ['repo', owner.toLowerCase(), repo.toLowerCase(), 'assignees'],
    queryFn: () => getJSON<User[]>(`${repoApi(owner, repo)}/assignees`),
  })
}

export function useIssue(owner: string, repo: string, number: number) {
  return useQuery({
    queryKey: issueKeys.one(owner, repo, number),
    queryFn: () => getJSON<Issue>(issueApi(owner, repo, number)),
    retry: retryUnlessNotFound,
  })
}

/** An issue or pull request by its global id (the spec's /issue/:id and /pr/:id). */
export function useIssueById(id: string) {
  return useQuery({
    queryKey: ['issue-id', id],
    queryFn: () => getJSON<Issue>(`/api/v1/issues/${encodeURIComponent(id)}`),
    enabled: /^\d+$/.test(id),
    retry: retryUnlessNotFound,
  })
}

export function useComments(owner: string, repo: string, number: number) {
  return useQuery({
    queryKey: [...issueKeys.one(owner, repo, number), 'comments'],
    queryFn: () => getJSON<Comment[]>(`${issueApi(owner, repo, number)}/comments`),
  })
}

export function useLabels(owner: string, repo: string) {
  return useQuery({
    queryKey: ['repo', owner.toLowerCase(), repo.toLowerCase(), 'labels'],
    queryFn: () => getJSON<Label[]>(`${repoApi(owner, repo)}/labels`),
  })
}

export const createIssue = (owner: string, repo: string, input: { title: string; body: string; labels?: number[] }) =>
  postJSON<Issue>(`${repoApi(owner, repo)}/issues`, input)

/** Gitea's EditIssueOption, as far as the title, body and assignees (usernames) go; also EditPullRequestOption's. */
export type IssueEdit = Partial<Sent<RequestBody<'editIssue'>, 'title' | 'body' | 'assignees'>>

export const editIssue = (owner: string, repo: string, number: number, patch: IssueEdit & { state?: 'open' | 'closed'; state_reason?: StateReason }) =>
  patchJSON<Issue>(issueApi(owner, repo, number), patch)

/**
 * Saves an edit of an issue: the server's answer (with its body_html) goes
 * straight into the cache, then the issue and the lists it is in are refetched.
 */
export function useSaveIssue(owner: string, repo: string, number: number) {
  const client = useQueryClient()
  const invalidate = useInvalidateIssues(owner, repo)
  return async (patch: IssueEdit) => {
    const saved = await editIssue(owner, repo, number, patch)
    client.setQueryData(issueKeys.one(owner, repo, number), saved)
    void invalidate()
    return saved
  }
}

/** Closes or reopens an issue, or a pull request through its own endpoint (PATCH .../pulls/{n}). */
export const setState = (owner: string, repo: string, number: number, pull: boolean, patch: { state: 'open' | 'closed'; state_reason?: StateReason }) =>
  patchJSON<Issue>(`${repoApi(owner, repo)}/${pull ? 'pulls' : 'issues'}/${number}`, patch)

export const addComment = (owner: string, repo: string, number: number, body: string) => postJSON<Comment>(`${issueApi(owner, repo, number)}/comments`, { body })

/** Replaces an issue's labels. */
export const setIssueLabels = (owner: string, repo: string, number: number, labels: number[]) => putJSON<Label[]>(`${issueApi(owner, repo, number)}/labels`, { labels })

export const createLabel = (owner: string, repo: string, label: { name: string; color: string; description?: string }) => postJSON<Label>(`${repoApi(owner, repo)}/labels`, label)

/** Invalidates an issue (or pull request) and the lists it is in. */
export function useInvalidateIssues(owner: string, repo: string) {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: ['repo', owner.toLowerCase(), repo.toLowerCase()] })
}

// --- mutations: each refetches what it changed; a screen's own follow-up (clearing a box, leaving the page) comes in as onSuccess, run first ---

/** Opens an issue. */
export function useCreateIssue(owner: string, repo: string, onSuccess?: (issue: Issue) => void) {
  return useMutation({ mutationFn: (input: { title: string; body: string; labels?: number[] }) => createIssue(owner, repo, input), onSuccess })
}

/** Comments on an issue or pull request. */
export function useAddComment(owner: string, repo: string, number: number, onSuccess?: () => void) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({
    mutationFn: (body: string) => addComment(owner, repo, number, body),
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

/** Closes or reopens an issue or pull request, posting the comment typed so far first. */
export function useChangeIssueState(owner: string, repo: string, number: number, pull: boolean, onSuccess?: () => void) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({
    mutationFn: async ({ state, reason, comment }: { state: 'open' | 'closed'; reason?: StateReason; comment?: string }) => {
      if (comment?.trim()) await addComment(owner, repo, number, comment)
      return setState(owner, repo, number, pull, reason ? { state, state_reason: reason } : { state })
    },
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

/** Replaces an issue's labels. */
export function useSetIssueLabels(owner: string, repo: string, number: number, onSuccess?: () => void) {
  const invalidate = useInvalidateIssues(owner, repo)
  return useMutation({
    mutationFn: (labels: number[]) => setIssueLabels(owner, repo, number, labels),
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

/** An edit of an issue's title, body or assignees through a save function (useSaveIssue, or a pull request's own). */
export function useEditIssue(save: (patch: IssueEdit) => Promise<unknown>, onSuccess?: () => void) {
  return useMutation({ mutationFn: save, onSuccess })
}

/** A body as HTML: the server's body_html when sent, else rendered through POST /markdown. */
export function useBodyHtml(body: string, html: string | undefined) {
  return useRenderedMarkdown(body, html === undefined)
}

/** A label's colour as CSS, from Gitea's "rrggbb" or "#rrggbb". */
export function labelColor(color: string): string {
  const hex = color.replace(/^#/, '')
  return /^[0-9a-f]{6}$/i.test(hex) ? `#${hex}` : 'var(--border)'
}

/** Black or white, whichever reads better on a label's colour. */
export function labelText(color: string): string {
  const hex = color.replace(/^#/, '')
  if (!/^[0-9a-f]{6}$/i.test(hex)) return 'var(--text)'
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16))
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#111' : '#fff'
}
