// The code browser's dForge reads (last commit per entry, blame), archive
// URLs, and Gitea's ChangeFiles write (POST /repos/{o}/{r}/contents).
import { useQuery } from '@tanstack/react-query'
import type { Optional, Schema, Sent } from '@/lib/apiSchema'
import { type Commit, encodePath, getPage, type Repository, repoApi, repoKeys, useBranches } from '@/lib/forge/api'
import { getJSON, postJSON, retryUnlessNotFound } from '@/lib/http'

const enc = encodeURIComponent

export type CommitSummary = Schema<'CommitSummary'>

export type LastCommits = Schema<'LastCommits'>

// The server sets every range's commit; the document calls it nullable only because Go's field is a pointer.
export type BlameRange = Omit<Schema<'BlameRange'>, 'commit'> & { commit: CommitSummary }

export type Blame = Omit<Schema<'Blame'>, 'ranges'> & { ranges: BlameRange[] }

/** The newest commit of each entry of directory path at ref. */
export function useLastCommits(owner: string, repo: string, path: string, ref: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'last_commits', ref, path],
    queryFn: () => getJSON<LastCommits>(`${repoApi(owner, repo)}/last_commits?ref=${enc(ref)}${path ? `&path=${enc(path)}` : ''}`),
    retry: retryUnlessNotFound,
    staleTime: 60_000,
  })
}

export function useBlame(owner: string, repo: string, path: string, ref: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'blame', ref, path],
    queryFn: () => getJSON<Blame>(`${repoApi(owner, repo)}/blame/${encodePath(path)}?ref=${enc(ref)}`),
    retry: retryUnlessNotFound,
  })
}

/** The newest commit of ref (touching path, when given) and how many commits lead to it. */
export function useLatestCommit(owner: string, repo: string, ref: string, path: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'latest_commit', ref, path],
    queryFn: async () => {
      const page = await getPage<Commit>(`${repoApi(owner, repo)}/commits`, { sha: ref, path, stat: 'false', files: 'false', verification: 'false' }, 1, 1)
      return { commit: page.items[0] ?? null, total: page.total }
    },
    retry: retryUnlessNotFound,
    staleTime: 60_000,
  })
}

/** Gitea's GET /repos/{o}/{r}/git/trees/{sha}: an entry's type is blob, tree or commit. */
type GitTree = Schema<'GitTree'>

/** The most tree entries "Go to file" reads, in pages of up to TREE_PAGE. */
export const MAX_TREE_PATHS = 50_000
const TREE_PAGE = 10_000

/** Every file path at ref (from the recursive git tree, a page at a time), and whether there were more than MAX_TREE_PATHS. */
export async function fetchTreePaths(owner: string, repo: string, ref: string): Promise<{ paths: string[]; truncated: boolean }> {
  const paths: string[] = []
  // Counted in entries read, since a server may cap per_page lower (Gitea's default is 1000).
  let read = 0
  for (let page = 1; ; page++) {
    const tree = await getJSON<GitTree>(`${repoApi(owner, repo)}/git/trees/${enc(ref)}?recursive=true&per_page=${TREE_PAGE}&page=${page}`)
    for (const e of tree.tree) if (e.type === 'blob') paths.push(e.path)
    read += tree.tree.length
    if (!tree.truncated || tree.tree.length === 0) return { paths, truncated: false }
    if (read >= MAX_TREE_PATHS) return { paths, truncated: true }
  }
}

export function useTreePaths(owner: string, repo: string, ref: string, enabled: boolean) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'tree_paths', ref],
    queryFn: () => fetchTreePaths(owner, repo, ref),
    enabled,
    retry: retryUnlessNotFound,
    staleTime: 5 * 60_000,
  })
}

export type ArchiveFormat = 'zip' | 'tar.gz'

/** Gitea's archive URL of ref: the tree as a .zip or .tar.gz download. */
export const archiveHref = (owner: string, repo: string, ref: string, format: ArchiveFormat) =>
  `${repoApi(owner, repo)}/archive/${encodePath(ref)}.${format}`

// operation is kept to these where the document says any string; content (create
// and update, base64), sha (the blob replaced or deleted) and from_path are
// sent only where they apply, the server reading an absent one as "".
export type FileOperation = Omit<Optional<Schema<'ChangeFile'>, 'content' | 'sha' | 'from_path'>, 'operation'> & {
  operation: 'create' | 'update' | 'delete'
}

// The fields the editor sends: the server fills author, committer and dates
// itself, and new_branch is sent only to commit to a new branch.
export type ChangeFilesInput = Sent<Schema<'ChangeFiles'>, 'branch' | 'message'> &
  Partial<Sent<Schema<'ChangeFiles'>, 'new_branch'>> & { files: FileOperation[] }

export type ChangeFilesResult = Schema<'FilesResponse'>

export const changeFiles = (owner: string, repo: string, input: ChangeFilesInput) =>
  postJSON<ChangeFilesResult>(`${repoApi(owner, repo)}/contents`, input)

/** Text as the base64 of its UTF-8 bytes, as the contents API takes it. */
export function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let bin = ''
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(bin)
}

/** The UTF-8 text of base64 content. */
export function fromBase64(b64: string): string {
  const bin = atob(b64.replace(/\s/g, ''))
  const bytes = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i)
  return new TextDecoder().decode(bytes)
}

/** Page URLs of the editor and blame views (full page loads, like the rest). */
export const editHref = {
  edit: (owner: string, repo: string, path: string, ref?: string) => `/${enc(owner)}/${enc(repo)}/_edit/${encodePath(path)}${ref ? `?ref=${enc(ref)}` : ''}`,
  create: (owner: string, repo: string, dir: string, ref?: string) => `/${enc(owner)}/${enc(repo)}/_new${dir ? `/${encodePath(dir)}` : ''}${ref ? `?ref=${enc(ref)}` : ''}`,
  remove: (owner: string, repo: string, path: string, ref?: string) => `/${enc(owner)}/${enc(repo)}/_delete/${encodePath(path)}${ref ? `?ref=${enc(ref)}` : ''}`,
  blame: (owner: string, repo: string, path: string, ref?: string) => `/${enc(owner)}/${enc(repo)}/blame/${encodePath(path)}${ref ? `?ref=${enc(ref)}` : ''}`,
}

/** Whether ref is a branch of repo (files are written on branches only, not tags or commits). */
export function useIsBranch(repo: Repository, ref: string): boolean {
  const branches = useBranches(repo.owner.login, repo.name)
  return ref === repo.default_branch || Boolean(branches.data?.some((b) => b.name === ref))
}
