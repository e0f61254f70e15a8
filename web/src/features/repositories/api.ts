// The repositories feature's writes, each a mutation hook that refetches what
// it changed. The fetchers themselves live in lib/forge (shared with other
// features) and in this folder's contentsApi.ts and transferApi.ts. A
// screen's own follow-up (clearing a box, leaving the page) comes in as
// onSuccess and runs before the refetch.
import { useMutation } from '@tanstack/react-query'
import {
  createRepo,
  type CreateRepoInput,
  deleteRepo,
  editRepo,
  forkRepo,
  type Permission,
  putCollaborator,
  removeCollaborator,
  type Repository,
  setFlag,
  useInvalidateRepo,
} from '@/lib/forge/api'
import { createBranch, createProtection, deleteBranch, deleteProtection, editProtection, type ProtectionInput, renameBranch, useInvalidateBranches } from '@/lib/forge/branches'
import { createTag, deleteTag, useInvalidateTags } from '@/lib/forge/tags'
import { changeFiles, type ChangeFilesInput } from './contentsApi'
import { acceptTransfer, rejectTransfer } from './transferApi'

export function useCreateRepo(onSuccess?: (repo: Repository) => void) {
  return useMutation({ mutationFn: (input: CreateRepoInput) => createRepo(input), onSuccess })
}

export function useEditRepo(owner: string, repo: string) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: (patch: Parameters<typeof editRepo>[2]) => editRepo(owner, repo, patch), onSuccess: invalidate })
}

export function useDeleteRepo(owner: string, repo: string, onSuccess?: () => void) {
  return useMutation({ mutationFn: () => deleteRepo(owner, repo), onSuccess })
}

export function useForkRepo(owner: string, repo: string, onSuccess?: (fork: Repository) => void) {
  return useMutation({ mutationFn: () => forkRepo(owner, repo), onSuccess })
}

/** Stars or watches a repository (or takes it back); refetched whether or not it went through. */
export function useSetFlag(kind: 'star' | 'watch', owner: string, repo: string) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: (on: boolean) => setFlag(kind, owner, repo, on), onSettled: invalidate })
}

export function usePutCollaborator(owner: string, repo: string, onSuccess?: () => void) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({
    mutationFn: ({ login, permission }: { login: string; permission: Permission }) => putCollaborator(owner, repo, login, permission),
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

export function useRemoveCollaborator(owner: string, repo: string) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: (user: string) => removeCollaborator(owner, repo, user), onSuccess: invalidate })
}

/** Commits a change of files (through the contents API). */
export function useChangeFiles(owner: string, repo: string, onSuccess?: (input: ChangeFilesInput) => void) {
  return useMutation({ mutationFn: (input: ChangeFilesInput) => changeFiles(owner, repo, input), onSuccess: (_res, input) => onSuccess?.(input) })
}

/** The recipient accepts a pending transfer. */
export function useAcceptTransfer(owner: string, repo: string, onSuccess?: (moved: Repository) => void) {
  return useMutation({ mutationFn: () => acceptTransfer(owner, repo), onSuccess })
}

/** The recipient rejects a pending transfer, or its owner cancels it. */
export function useRejectTransfer(owner: string, repo: string) {
  const invalidate = useInvalidateRepo(owner, repo)
  return useMutation({ mutationFn: () => rejectTransfer(owner, repo), onSuccess: invalidate })
}

export function useCreateBranch(owner: string, repo: string, onSuccess?: () => void) {
  const invalidate = useInvalidateBranches(owner, repo)
  return useMutation({
    mutationFn: ({ name, from }: { name: string; from: string }) => createBranch(owner, repo, name, from),
    onSuccess: () => {
      onSuccess?.()
      invalidate()
    },
  })
}

export function useRenameBranch(owner: string, repo: string, branch: string, onSuccess?: () => void) {
  const invalidate = useInvalidateBranches(owner, repo)
  return useMutation({
    mutationFn: (name: string) => renameBranch(owner, repo, branch, name),
    onSuccess: () => {
      onSuccess?.()
      invalidate()
    },
  })
}

export function useDeleteBranch(owner: string, repo: string, branch: string, onSuccess?: () => void) {
  const invalidate = useInvalidateBranches(owner, repo)
  return useMutation({
    mutationFn: () => deleteBranch(owner, repo, branch),
    onSuccess: () => {
      onSuccess?.()
      invalidate()
    },
  })
}

/** Saves a branch protection rule: edits the named one, or creates one when there is none. */
export function useSaveProtection(owner: string, repo: string, ruleName: string | undefined, onSuccess?: () => void) {
  const invalidate = useInvalidateBranches(owner, repo)
  return useMutation({
    mutationFn: (input: ProtectionInput) => (ruleName !== undefined ? editProtection(owner, repo, ruleName, input) : createProtection(owner, repo, input)),
    onSuccess: () => {
      invalidate()
      onSuccess?.()
    },
  })
}

export function useDeleteProtection(owner: string, repo: string, ruleName: string) {
  const invalidate = useInvalidateBranches(owner, repo)
  return useMutation({ mutationFn: () => deleteProtection(owner, repo, ruleName), onSuccess: invalidate })
}

export function useCreateTag(owner: string, repo: string, onSuccess?: () => void) {
  const invalidate = useInvalidateTags(owner, repo)
  return useMutation({
    mutationFn: (tag: { tag_name: string; target: string; message: string }) => createTag(owner, repo, tag),
    onSuccess: () => {
      onSuccess?.()
      invalidate()
    },
  })
}

export function useDeleteTag(owner: string, repo: string, tag: string, onSuccess?: () => void) {
  const invalidate = useInvalidateTags(owner, repo)
  return useMutation({
    mutationFn: () => deleteTag(owner, repo, tag),
    onSuccess: () => {
      onSuccess?.()
      invalidate()
    },
  })
}
