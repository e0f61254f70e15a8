// Answers to a pending repository transfer (Gitea's routes): the recipient
// accepts (202, the repository under its new owner) or rejects it (200);
// the repository's owners cancel it with the same reject. Neither gives
// anything away, so the node relays them under the user's delegation.
import { type Repository, repoApi } from '@/lib/forge/api'
import { postJSON } from '@/lib/http'

export const acceptTransfer = (owner: string, repo: string) => postJSON<Repository>(`${repoApi(owner, repo)}/transfer/accept`)
export const rejectTransfer = (owner: string, repo: string) => postJSON<Repository>(`${repoApi(owner, repo)}/transfer/reject`)

/** How the signed-in user stands to a pending transfer: its recipient, the repository's owner side, or neither. */
export function transferRole(repo: Repository, login: string | undefined): 'recipient' | 'owner' | null {
  const t = repo.repo_transfer
  if (!t || !login) return null
  const me = login.toLowerCase()
  if (t.recipient.login.toLowerCase() === me) return 'recipient'
  if (repo.owner.login.toLowerCase() === me || repo.permissions?.admin || t.doer.login.toLowerCase() === me) return 'owner'
  return null
}
