// Branch writes and branch protection rules (Gitea's routes and shapes).
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema, Sent } from '@/lib/apiSchema'
import { deleteJSON, getJSON, patchJSON, postJSON } from '@/lib/http'
import { repoApi, repoKeys } from './api'

export type BranchProtection = Schema<'BranchProtection'>

// The fields the protection form sends (a new rule's others stay at Go's zero
// values, an edit's as they are), none null.
export type ProtectionInput = Sent<
  Schema<'ProtectionOption'>,
  'rule_name' | 'enable_push' | 'enable_push_whitelist' | 'push_whitelist_usernames' | 'enable_status_check' | 'status_check_contexts' | 'required_approvals'
>

const enc = encodeURIComponent
const branchPath = (branch: string) => branch.split('/').map(enc).join('/')

export const createBranch = (owner: string, repo: string, name: string, from: string) =>
  postJSON(`${repoApi(owner, repo)}/branches`, { new_branch_name: name, old_ref_name: from })
export const renameBranch = (owner: string, repo: string, branch: string, name: string) => patchJSON(`${repoApi(owner, repo)}/branches/${branchPath(branch)}`, { name })
export const deleteBranch = (owner: string, repo: string, branch: string) => deleteJSON(`${repoApi(owner, repo)}/branches/${branchPath(branch)}`)

export function useProtections(owner: string, repo: string) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'branch_protections'],
    queryFn: () => getJSON<BranchProtection[]>(`${repoApi(owner, repo)}/branch_protections`),
  })
}

export const createProtection = (owner: string, repo: string, p: ProtectionInput) => postJSON<BranchProtection>(`${repoApi(owner, repo)}/branch_protections`, p)
export const editProtection = (owner: string, repo: string, name: string, p: Partial<ProtectionInput>) =>
  patchJSON<BranchProtection>(`${repoApi(owner, repo)}/branch_protections/${branchPath(name)}`, p)
export const deleteProtection = (owner: string, repo: string, name: string) => deleteJSON(`${repoApi(owner, repo)}/branch_protections/${branchPath(name)}`)

/** Refetches a repository's branches and protection rules after a change. */
export function useInvalidateBranches(owner: string, repo: string) {
  const qc = useQueryClient()
  return () => {
    void qc.invalidateQueries({ queryKey: [...repoKeys.repo(owner, repo), 'branches'] })
    void qc.invalidateQueries({ queryKey: [...repoKeys.repo(owner, repo), 'branch_protections'] })
  }
}

/** "a, b ,c" as ["a", "b", "c"]. */
export const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
