// Organizations and teams: Gitea's /orgs and /teams API, which the chain's
// org.* and team.* actions back. Memberships are on chain, so public.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema, Sent } from '@/lib/apiSchema'
import { deleteJSON, getJSON, patchJSON, postJSON, putJSON, retryUnlessNotFound } from '@/lib/http'
import { getPage, type Repository, useInvalidateRepo, type User } from '@/lib/forge/api'
import { withWalletSignature } from '@/lib/chain/walletSignature'

/** Gitea's Organization, as GET /api/v1/orgs/{org} gives it. */
export type Org = Schema<'Org'>

export type TeamPermission = 'read' | 'write' | 'admin' | 'owner'
export const TEAM_PERMISSIONS = ['read', 'write', 'admin'] as const

/** Gitea's Team. */
export type Team = Schema<'Team'>

export const PAGE_SIZE = 20

const enc = encodeURIComponent
const orgApi = (org: string) => `/api/v1/orgs/${enc(org)}`
const paged = { retry: retryUnlessNotFound, placeholderData: keepPreviousData }

export const orgKeys = {
  all: ['orgs'] as const,
  org: (name: string) => ['orgs', 'one', name.toLowerCase()] as const,
}

/** The signed-in user's organizations, or every organization. */
export function useOrgList(mine: boolean, page: number) {
  return useQuery({
    queryKey: [...orgKeys.all, mine ? 'mine' : 'all', page],
    queryFn: () => getPage<Org>(mine ? '/api/v1/user/orgs' : '/api/v1/orgs', {}, page, PAGE_SIZE),
    ...paged,
  })
}

export function useOrg(name: string) {
  return useQuery({ queryKey: orgKeys.org(name), queryFn: () => getJSON<Org>(orgApi(name)), retry: retryUnlessNotFound })
}

export function useOrgRepos(name: string, page: number) {
  return useQuery({
    queryKey: [...orgKeys.org(name), 'repos', page],
    queryFn: () => getPage<Repository>(`${orgApi(name)}/repos`, {}, page, PAGE_SIZE),
    ...paged,
  })
}

export function useOrgMembers(name: string, page: number) {
  return useQuery({
    queryKey: [...orgKeys.org(name), 'members', page],
    queryFn: () => getPage<User>(`${orgApi(name)}/members`, {}, page, PAGE_SIZE),
    ...paged,
  })
}

export function useOrgTeams(name: string, page: number) {
  return useQuery({
    queryKey: [...orgKeys.org(name), 'teams', page],
    queryFn: () => getPage<Team>(`${orgApi(name)}/teams`, {}, page, PAGE_SIZE),
    ...paged,
  })
}

export function useTeamMembers(org: string, team: number) {
  return useQuery({
    queryKey: [...orgKeys.org(org), 'team', team, 'members'],
    queryFn: () => getPage<User>(`/api/v1/teams/${team}/members`, {}, 1, 50),
    retry: retryUnlessNotFound,
  })
}

export function useTeamRepos(org: string, team: number) {
  return useQuery({
    queryKey: [...orgKeys.org(org), 'team', team, 'repos'],
    queryFn: () => getPage<Repository>(`/api/v1/teams/${team}/repos`, {}, 1, 50),
    retry: retryUnlessNotFound,
  })
}

/** The signed-in user's teams: whether they own an organization is whether they are in its Owners team. */
export function useMyTeams(enabled: boolean) {
  return useQuery({
    queryKey: [...orgKeys.all, 'my-teams'],
    queryFn: () => getPage<Team>('/api/v1/user/teams', {}, 1, 50),
    enabled,
  })
}

/** Refetches everything shown of organizations after a change. */
export function useInvalidateOrgs() {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: orgKeys.all })
}

/** What the new-organization form sends (OrgBody's other fields keep Gitea's defaults). */
export type CreateOrgInput = Sent<Schema<'OrgBody'>, 'username' | 'full_name' | 'description'>

export const createOrg = (input: CreateOrgInput) => postJSON<Org>('/api/v1/orgs', input)
export const editOrg = (org: string, input: Partial<Omit<Org, 'id' | 'username'>>) => patchJSON<Org>(orgApi(org), input)
export const deleteOrg = (org: string) => withWalletSignature(() => deleteJSON(orgApi(org)))
// Removing an owner changes the owners: the node asks the user's own wallet to sign that.
export const removeOrgMember = (org: string, login: string) => withWalletSignature(() => deleteJSON(`${orgApi(org)}/members/${enc(login)}`))

// What the new-team form sends (createTeam adds the units); permission is one
// the form offers, where the document says any string.
export type CreateTeamInput = Sent<Schema<'TeamBody'>, 'name' | 'description' | 'can_create_org_repo' | 'includes_all_repositories'> & {
  permission: (typeof TEAM_PERMISSIONS)[number]
}

export const createTeam = (org: string, input: CreateTeamInput) => postJSON<Team>(`${orgApi(org)}/teams`, { ...input, units: ['repo.code', 'repo.issues', 'repo.pulls'] })
export const deleteTeam = (team: number) => deleteJSON(`/api/v1/teams/${team}`)
// The Owners team's members are sensitive: the node asks the user's own wallet to sign those changes.
export const addTeamMember = (team: number, login: string) => withWalletSignature(() => putJSON<void>(`/api/v1/teams/${team}/members/${enc(login)}`, {}))
export const removeTeamMember = (team: number, login: string) => withWalletSignature(() => deleteJSON(`/api/v1/teams/${team}/members/${enc(login)}`))
export const addTeamRepo = (team: number, org: string, repo: string) => putJSON<void>(`/api/v1/teams/${team}/repos/${enc(org)}/${enc(repo)}`, {})
export const removeTeamRepo = (team: number, org: string, repo: string) => deleteJSON(`/api/v1/teams/${team}/repos/${enc(org)}/${enc(repo)}`)

/**
 * POST /repos/{owner}/{repo}/transfer: to a user or an organization. Never
 * delegated (the user's own wallet signs it). The answer is the repository
 * under its new owner (202), or as it stays with its repo_transfer when the
 * transfer waits for the recipient's answer (201).
 */
export const transferRepo = (owner: string, repo: string, newOwner: string) =>
  withWalletSignature(() => postJSON<Repository>(`/api/v1/repos/${enc(owner)}/${enc(repo)}/transfer`, { new_owner: newOwner }))

/** The page of an organization. */
export const orgHref = (name: string) => `/org/${enc(name)}`

/** Whether name can name an organization: a username's shape (Gitea's), 1 to 39 characters. */
export function orgNameProblem(name: string): string | null {
  if (name === '') return 'create.errors.nameRequired'
  if (name.length > 39) return 'create.errors.nameTooLong'
  if (!/^[A-Za-z0-9]+([-_.][A-Za-z0-9]+)*$/.test(name)) return 'create.errors.nameChars'
  return null
}

// --- mutations: each refetches what it changed; a screen's own follow-up (clearing a box, leaving the page) comes in as onSuccess, run first ---

/** Runs onSuccess, then refetches the organizations. */
function useThenInvalidate(onSuccess?: () => void) {
  const invalidate = useInvalidateOrgs()
  return () => {
    onSuccess?.()
    return invalidate()
  }
}

export function useCreateOrg(onSuccess?: (org: Org) => void) {
  return useMutation({ mutationFn: (input: CreateOrgInput) => createOrg(input), onSuccess })
}

export function useEditOrg(org: string) {
  const invalidate = useInvalidateOrgs()
  return useMutation({ mutationFn: (input: Partial<Omit<Org, 'id' | 'username'>>) => editOrg(org, input), onSuccess: invalidate })
}

export function useDeleteOrg(org: string, onSuccess?: () => void) {
  return useMutation({ mutationFn: () => deleteOrg(org), onSuccess })
}

export function useRemoveOrgMember(org: string) {
  return useMutation({ mutationFn: (login: string) => removeOrgMember(org, login), onSuccess: useThenInvalidate() })
}

export function useCreateTeam(org: string, onSuccess?: () => void) {
  return useMutation({ mutationFn: (input: CreateTeamInput) => createTeam(org, input), onSuccess: useThenInvalidate(onSuccess) })
}

export function useDeleteTeam(team: number) {
  return useMutation({ mutationFn: () => deleteTeam(team), onSuccess: useThenInvalidate() })
}

export function useAddTeamMember(team: number, onSuccess?: () => void) {
  return useMutation({ mutationFn: (login: string) => addTeamMember(team, login), onSuccess: useThenInvalidate(onSuccess) })
}

export function useRemoveTeamMember(team: number) {
  return useMutation({ mutationFn: (login: string) => removeTeamMember(team, login), onSuccess: useThenInvalidate() })
}

export function useAddTeamRepo(team: number, org: string, onSuccess?: () => void) {
  return useMutation({ mutationFn: (repo: string) => addTeamRepo(team, org, repo), onSuccess: useThenInvalidate(onSuccess) })
}

export function useRemoveTeamRepo(team: number, org: string) {
  return useMutation({ mutationFn: (repo: string) => removeTeamRepo(team, org, repo), onSuccess: useThenInvalidate() })
}

/**
 * Offers a repository to a new owner. When the transfer waits for the
 * recipient, the repository (with its pending offer) is refetched; when it
 * moved at once, onMoved gets it under its new owner (or nothing, if the
 * server sent no body).
 */
export function useTransferRepo(owner: string, repo: string, onMoved?: (after: Repository | undefined, newOwner: string) => void) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({
    mutationFn: (newOwner: string) => transferRepo(owner, repo, newOwner),
    onSuccess: (after, newOwner) => {
      if (after?.repo_transfer) return invalidate()
      onMoved?.(after ?? undefined, newOwner)
    },
  })
}
