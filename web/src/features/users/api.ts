import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { apiError, apiFetch, getJSON, postJSON } from '@/lib/http'

/** A user as GET /api/v1/users/{username} gives it (Gitea's shape plus the wallet). */
export type PublicUser = Optional<Schema<'User'>, 'email' | 'hidden' | 'hidden_reason' | 'followed_by_me'>

/** A tip from GET /api/v1/chain/tips: a transfer that names what it thanks. */
export type Tip = Optional<Schema<'index.Tx'>, 'actor' | 'action'>

export type TokenInfo = Pick<Schema<'ChainParams'>, 'token'>

export const userQuery = (login: string) => ({
  queryKey: ['user', login.toLowerCase()],
  queryFn: () => getJSON<PublicUser>(`/api/v1/users/${encodeURIComponent(login)}`),
})

export const tipsQuery = (target: string) => ({
  queryKey: ['tips', target],
  queryFn: () => getJSON<Tip[]>(`/api/v1/chain/tips?target=${encodeURIComponent(target)}&limit=20`),
})

export const tokenQuery = {
  queryKey: ['chain-params'],
  queryFn: () => getJSON<TokenInfo>('/api/v1/chain/params'),
  staleTime: Infinity,
}

/** Formats integer micro-units exactly (no floats): 1500000 with 6 decimals is "1.5". */
export function formatAmount(units: number | string, decimals: number): string {
  const digits = BigInt(units).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

/** An email as GET /user/emails gives it (Gitea's Email): the wallet's primary one, then the claimed ones. */
export type Email = Schema<'Email'>

const emailsKey = ['user-emails']

async function dropEmail(email: string): Promise<void> {
  const res = await apiFetch('/api/v1/user/emails', { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ emails: [email] }) })
  if (!res.ok) throw await apiError(res)
}

export const useEmails = () => useQuery({ queryKey: emailsKey, queryFn: () => getJSON<Email[]>('/api/v1/user/emails') })

function useInvalidateEmails() {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: emailsKey })
}

/** Claims an email; onSuccess runs first (clearing the box), then the list is refetched. */
export function useAddEmail(onSuccess?: () => void) {
  const invalidate = useInvalidateEmails()
  return useMutation({
    mutationFn: (email: string) => postJSON<Email[]>('/api/v1/user/emails', { emails: [email] }),
    onSuccess: () => {
      onSuccess?.()
      return invalidate()
    },
  })
}

export function useRemoveEmail() {
  const invalidate = useInvalidateEmails()
  return useMutation({ mutationFn: dropEmail, onSuccess: invalidate })
}
