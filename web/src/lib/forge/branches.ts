// Branch writes and branch protection rules (Gitea's routes and shapes).
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { deleteJSON, getJSON, patchJSON, postJSON } from '@/lib/http'
import { repoApi, repoKeys } from './api'

export interface BranchProtection {
  rule_name: string
  branch_name: string
  enable_push: boolean
  enable_push_whitelist: boolean
  push_whitelist_usernames: string[]
  enable_status_check: boolean
  status_check_contexts: string[]
  required_approvals: number
}

export type ProtectionInput = Omit<BranchProtection, 'branch_name'>

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
