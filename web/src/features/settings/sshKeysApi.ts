// SSH public keys (Gitea's /user/keys): registered on chain, so every node
// lets them into git over SSH.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { withWalletSignature } from '@/lib/chain/walletSignature'
import { apiError, apiFetch, deleteJSON, postJSON } from '@/lib/http'

export type PublicKey = Schema<'Key'>

export interface KeyPage {
  items: PublicKey[]
  total: number | null
}

export const KEYS_PER_PAGE = 20

export const sshKeyQueries = {
  all: ['user', 'keys'] as const,
  page: (page: number) => ['user', 'keys', page] as const,
}

async function listKeys(page: number): Promise<KeyPage> {
  const res = await apiFetch(`/api/v1/user/keys?page=${page}&limit=${KEYS_PER_PAGE}`)
  if (!res.ok) throw await apiError(res)
  const items = (await res.json()) as PublicKey[]
  const total = res.headers.get('X-Total-Count')
  return { items, total: total === null ? null : Number(total) }
}

export function useSshKeys(page: number) {
  return useQuery({ queryKey: sshKeyQueries.page(page), queryFn: () => listKeys(page), placeholderData: keepPreviousData })
}

/** Adding a key lets it push in the user's name, so the node asks the user's own wallet to sign it. */
export const addSshKey = (title: string, key: string) => withWalletSignature(() => postJSON<PublicKey>('/api/v1/user/keys', { title, key }))
export const deleteSshKey = (id: number) => deleteJSON(`/api/v1/user/keys/${id}`)

/** A quick local check of a pasted key, so an obvious mistake is named before anything is sent. */
export function keyProblem(text: string): 'empty' | 'private' | 'format' | null {
  const key = text.trim()
  if (!key) return 'empty'
  if (key.includes('PRIVATE KEY')) return 'private'
  if (!/^(?:\S+\s+)?(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com)\s+[A-Za-z0-9+/]+=*(\s.*)?$/.test(key)) {
    return 'format'
  }
  return null
}

export function useAddSshKey(onSuccess?: () => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ title, key }: { title: string; key: string }) => addSshKey(title, key),
    onSuccess: () => {
      onSuccess?.()
      void client.invalidateQueries({ queryKey: sshKeyQueries.all })
    },
  })
}

export function useDeleteSshKey(id: number) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => deleteSshKey(id), onSuccess: () => void client.invalidateQueries({ queryKey: sshKeyQueries.all }) })
}
