// The forge's repository API: Gitea's API v1 (same paths and JSON shapes)
// plus dForge's readme, counts and commit CIDs. Its shapes are the generated
// API types (lib/apiSchema); only the client's own, a search filter, is
// written here.
import type { Optional, RequestBody, Schema } from '@/lib/apiSchema'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Page } from '@/lib/chain/api'
import { withWalletSignature } from '@/lib/chain/walletSignature'
import { ApiError, apiFetch, apiError, deleteJSON, getJSON, patchJSON, postJSON, putJSON, retryUnlessNotFound } from '@/lib/http'
import { NotFoundError } from '@/components/QueryState'

/** A user as Gitea's API nests it (owner, author, poster). */
export type User = Schema<'ForgeUser'>

// permissions, replication, the moderation marks and starred_by_me and
// watched_by_me are left out (omitempty) where they do not apply: signed out,
// a node holding the git data, a repository not hidden.
export type Repository = Optional<
  Schema<'Repo'>,
  'permissions' | 'replication' | 'hidden' | 'hidden_reason' | 'starred_by_me' | 'watched_by_me'
>

/** A repository offered to a new owner (Gitea's RepoTransfer). */
export type RepoTransfer = Schema<'RepoTransfer'>

/** GET /repos/{o}/{r}/counts (dForge's). */
export type RepoCounts = Schema<'Counts'>

// One entry of GET /repos/{o}/{r}/contents/{path} (Gitea's ContentsResponse):
// type is one of these where the document says any string; too_large and
// binary (dForge's) say why content is not inlined.
export type ContentEntry = Omit<Schema<'Content'>, 'type'> & { type: 'file' | 'dir' | 'symlink' | 'submodule' }

/** Gitea's CommitUser: a commit's git author or committer. */
export type CommitUser = Schema<'Identity'>

// Gitea's Commit, with dForge's cid (the commit object's IPFS CID, public
// repositories only); created, files, stats, cid and the diff are left out
// (omitempty) when the commit lacks them or the request did not ask.
export type Commit = Optional<Schema<'Commit'>, 'created' | 'files' | 'stats' | 'cid' | 'diff' | 'diff_truncated'>

export type Branch = Schema<'Branch'>

// Gitea's Tag: commit is null for a tag of something other than a commit, and
// tagger (an annotated tag's) is left out (omitempty) for a lightweight one.
export type Tag = Optional<Schema<'Tag'>, 'tagger'>

// A contributor as dForge counts them from git: name, email and commits;
// login is left out (omitempty) when no account claims the author email.
export type Contributor = Optional<Schema<'Contributor'>, 'login'>

export const PERMISSIONS = ['read', 'write', 'maintain'] as const
export type Permission = (typeof PERMISSIONS)[number]

const enc = encodeURIComponent

/** /api/v1/repos/{owner}/{repo} with each part escaped. */
export function repoApi(owner: string, repo: string): string {
  return `/api/v1/repos/${enc(owner)}/${enc(repo)}`
}

/** A repository file path for a URL: each segment escaped, the slashes kept. */
export function encodePath(path: string): string {
  return path.split('/').filter(Boolean).map(enc).join('/')
}

/** The page URLs of a repository (full page loads). */
export const repoHref = {
  home: (owner: string, repo: string) => `/${enc(owner)}/${enc(repo)}`,
  /** The tree or file at path; ref omitted means the default branch. */
  src: (owner: string, repo: string, path = '', ref?: string) =>
    `/${enc(owner)}/${enc(repo)}/src${path ? `/${encodePath(path)}` : ''}${ref ? `?ref=${enc(ref)}` : ''}`,
  commits: (owner: string, repo: string, ref?: string, path?: string) => {
    const q = new URLSearchParams()
    if (ref) q.set('ref', ref)
    if (path) q.set('path', path)
    const qs = q.toString()
    return `/${enc(owner)}/${enc(repo)}/commits${qs ? `?${qs}` : ''}`
  },
  commit: (owner: string, repo: string, sha: string) => `/${enc(owner)}/${enc(repo)}/commit/${enc(sha)}`,
  section: (owner: string, repo: string, section: string) => `/${enc(owner)}/${enc(repo)}/${section}`,
  raw: (owner: string, repo: string, path: string, ref: string) => `${repoApi(owner, repo)}/raw/${encodePath(path)}?ref=${enc(ref)}`,
}

/** The IPFS gateway URL of a block, as raw bytes. */
export const ipfsHref = (cid: string) => `/ipfs/${enc(cid)}?format=raw`

/** GET a list page, with the total from X-Total-Count when the server sends it. */
export async function getPage<T>(path: string, params: Record<string, string | number | undefined>, page: number, limit: number): Promise<Page<T>> {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v))
  q.set('page', String(page))
  q.set('limit', String(limit))
  const res = await apiFetch(`${path}?${q}`)
  if (res.status === 404) throw new NotFoundError(`not found: ${path}`)
  if (!res.ok) throw await apiError(res)
  const body = (await res.json()) as T[] | { data: T[] }
  const items = Array.isArray(body) ? body : (body.data ?? [])
  const total = res.headers.get('X-Total-Count')
  return { items, total: total === null ? null : Number(total) }
}

/** GET a text body (diffs, raw files). */
export async function getText(path: string): Promise<string> {
  const res = await apiFetch(path, { headers: { Accept: 'text/plain' } })
  if (res.status === 404) throw new NotFoundError(`not found: ${path}`)
  if (!res.ok) throw await apiError(res)
  return res.text()
}

/** Whether a code route's error is its 503 "replicating": the git data is on its way to this node. */
export function isReplicatingError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 503 && error.code === 'replicating'
}

// Neither a missing document nor git data still on its way comes back on a second try.
const notFoundRetry = { retry: (failures: number, error: Error) => !isReplicatingError(error) && retryUnlessNotFound(failures, error) }
const paged = { ...notFoundRetry, placeholderData: keepPreviousData }

export const repoKeys = {
  repo: (owner: string, repo: string) => ['repo', owner.toLowerCase(), repo.toLowerCase()] as const,
}

export function useRepo(owner: string, repo: string, enabled = true) {
  return useQuery({
    queryKey: repoKeys.repo(owner, repo),
    queryFn: () => getJSON<Repository>(repoApi(owner, repo)),
    enabled,
    ...notFoundRetry,
  })
}

/** A repository by its numeric id (the spec's /repository/:id). */
export function useRepoById(id: string) {
  return useQuery({
    queryKey: ['repo-id', id],
    queryFn: () => getJSON<Repository>(`/api/v1/repositories/${enc(id)}`),
    enabled: /^\d+$/.test(id),
    ...notFoundRetry,
  })
}

export function useCounts(owner: string, repo: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'counts'],
    queryFn: () => getJSON<RepoCounts>(`${repoApi(owner, repo)}/counts`),
    ...notFoundRetry,
  })
}

/** The README rendered on the server, or null when the repository has none. */
export function useReadme(owner: string, repo: string, ref: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'readme', ref],
    queryFn: async () => {
      try {
        return await getJSON<{ path: string; html: string }>(`${repoApi(owner, repo)}/readme?ref=${enc(ref)}`)
      } catch (e) {
        if (e instanceof NotFoundError) return null
        throw e
      }
    },
  })
}

/** A directory's entries or one file, at ref. */
export function useContents(owner: string, repo: string, path: string, ref: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'contents', ref, path],
    // The root is /contents itself, as in Gitea's API.
    queryFn: () => getJSON<ContentEntry | ContentEntry[]>(`${repoApi(owner, repo)}/contents${path ? `/${encodePath(path)}` : ''}?ref=${enc(ref)}`),
    ...notFoundRetry,
  })
}

export function useBranches(owner: string, repo: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'branches'],
    queryFn: async () => (await getPage<Branch>(`${repoApi(owner, repo)}/branches`, {}, 1, 100)).items,
    ...notFoundRetry,
  })
}

export function useTags(owner: string, repo: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'tags'],
    queryFn: async () => (await getPage<Tag>(`${repoApi(owner, repo)}/tags`, {}, 1, 100)).items,
    ...notFoundRetry,
  })
}

export function useContributors(owner: string, repo: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'contributors'],
    queryFn: () => getJSON<Contributor[]>(`${repoApi(owner, repo)}/contributors`),
    ...notFoundRetry,
  })
}

export function useCommits(owner: string, repo: string, filter: { ref?: string; path?: string }, page: number, limit: number) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'commits', filter.ref ?? '', filter.path ?? '', page, limit],
    queryFn: () => getPage<Commit>(`${repoApi(owner, repo)}/commits`, { sha: filter.ref, path: filter.path, stat: 'false' }, page, limit),
    ...paged,
  })
}

export function useCommit(owner: string, repo: string, sha: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'commit', sha],
    queryFn: () => getJSON<Commit>(`${repoApi(owner, repo)}/git/commits/${enc(sha)}`),
    ...notFoundRetry,
  })
}

export function useCommitDiff(owner: string, repo: string, sha: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'commit-diff', sha],
    queryFn: () => getText(`${repoApi(owner, repo)}/git/commits/${enc(sha)}.diff`),
    ...notFoundRetry,
  })
}

export function useCollaborators(owner: string, repo: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'collaborators'],
    queryFn: () => getJSON<User[]>(`${repoApi(owner, repo)}/collaborators`),
  })
}

export const starApi = (owner: string, repo: string) => `/api/v1/user/starred/${enc(owner)}/${enc(repo)}`
export const watchApi = (owner: string, repo: string) => `${repoApi(owner, repo)}/subscription`

export const setFlag = (kind: 'star' | 'watch', owner: string, repo: string, on: boolean) => {
  const path = kind === 'star' ? starApi(owner, repo) : watchApi(owner, repo)
  return on ? putJSON<unknown>(path, {}) : deleteJSON(path)
}

export const forkRepo = (owner: string, repo: string) => postJSON<Repository>(`${repoApi(owner, repo)}/forks`, {})

// readme (a template's name) is sent only when one is chosen.
export type CreateRepoInput = Optional<RequestBody<'createRepo'>, 'readme'>

export const createRepo = (input: CreateRepoInput) => postJSON<Repository>('/api/v1/user/repos', input)
/** Deleting is never delegated: the owner's own wallet signs it when the node asks (withWalletSignature). */
export const deleteRepo = (owner: string, repo: string) => withWalletSignature(() => deleteJSON(repoApi(owner, repo)))
export const editRepo = (owner: string, repo: string, patch: Partial<Pick<Repository, 'description' | 'website' | 'private' | 'default_branch'>>) =>
  patchJSON<Repository>(repoApi(owner, repo), patch)
export const putCollaborator = (owner: string, repo: string, user: string, permission: Permission) =>
  putJSON<unknown>(`${repoApi(owner, repo)}/collaborators/${enc(user)}`, { permission })
export const removeCollaborator = (owner: string, repo: string, user: string) => deleteJSON(`${repoApi(owner, repo)}/collaborators/${enc(user)}`)

/** Invalidates everything cached about one repository. */
export function useInvalidateRepo(owner: string, repo: string) {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: repoKeys.repo(owner, repo) })
}

// Explore and Home: GET /repos/search answers {ok, data} with X-Total-Count.

export const SORTS = ['updated', 'stars', 'forks', 'name'] as const
export type RepositorySort = (typeof SORTS)[number]

export function isRepositorySort(s: string): s is RepositorySort {
  return (SORTS as readonly string[]).includes(s)
}

/** Gitea's sort parameter and order for each of ours ("name" is Gitea's "alpha"). */
const SEARCH_SORT: Record<RepositorySort, { sort: string; order: 'asc' | 'desc' }> = {
  updated: { sort: 'updated', order: 'desc' },
  stars: { sort: 'stars', order: 'desc' },
  forks: { sort: 'forks', order: 'desc' },
  name: { sort: 'alpha', order: 'asc' },
}

/** Narrows a search: repositories carrying a topic (Gitea's topic=true, q is the topic), or one owner's, sources or forks only (Gitea's mode). */
export interface RepoSearchFilter {
  topic?: string
  owner?: string
  mode?: 'fork' | 'source'
}

export function searchRepos(q: string, sort: RepositorySort, page: number, limit: number, filter: RepoSearchFilter = {}): Promise<Page<Repository>> {
  const byTopic = filter.topic ? { q: filter.topic, topic: 'true' } : { q: q.trim() }
  return getPage<Repository>('/api/v1/repos/search', { ...byTopic, ...SEARCH_SORT[sort], owner: filter.owner, mode: filter.mode }, page, limit)
}

export function useRepoSearch(q: string, sort: RepositorySort, page: number, limit: number, filter: RepoSearchFilter = {}) {
  return useQuery({
    queryKey: ['repo-search', q.trim(), sort, page, limit, filter.topic ?? '', filter.owner ?? '', filter.mode ?? ''],
    queryFn: () => searchRepos(q, sort, page, limit, filter),
    placeholderData: keepPreviousData,
  })
}

/** Repository names the forge keeps (any case): Gitea's ".", ".." and "-", and HEAD and api. */
const reservedRepoNames = ['.', '..', '-', 'head', 'api']

/** Windows device names, alone or with an extension ("con", "con.txt"). */
const windowsDevice = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/

/**
 * The chain's repository name rules (internal/chain/forge/names.go): 1 to
 * 100 letters, digits, '-', '_' and '.', no "..", not starting with '-', not
 * a reserved or Windows device name, not ending in .git, .wiki, .rss or .atom.
 * Returns the key of what is wrong (in the repositories namespace), or null.
 */
export function repoNameProblem(name: string): string | null {
  if (name === '') return 'create.errors.nameRequired'
  if (name.length > 100) return 'create.errors.nameTooLong'
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return 'create.errors.nameChars'
  const lower = name.toLowerCase()
  if (reservedRepoNames.includes(lower)) return 'create.errors.nameReserved'
  if (name.includes('..')) return 'create.errors.nameDots'
  if (name.startsWith('-')) return 'create.errors.nameDash'
  if (windowsDevice.test(lower.split('.')[0])) return 'create.errors.nameDevice'
  if (['.git', '.wiki', '.rss', '.atom'].some((s) => lower.endsWith(s))) return 'create.errors.nameSuffix'
  return null
}

/** Whether the viewer may merge, label and close anything: maintainers and owners. */
export function canMaintain(repo: Repository): boolean {
  return Boolean(repo.permissions?.admin || repo.permissions?.maintain)
}

/** Whether login owns repo (delete, collaborators, transfer are the owner's), or owns the organization that does (admin). */
export function isOwner(repo: Repository, login: string | undefined): boolean {
  return Boolean(login) && (repo.owner.login.toLowerCase() === login?.toLowerCase() || Boolean(repo.permissions?.admin))
}
