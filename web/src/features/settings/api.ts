// The settings endpoints, with TanStack Query hooks for the reads.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Optional, RequestBody, ResponseBody, Schema, Sent } from '@/lib/apiSchema'
import { getCurrentUser, type ServerUser, toStoreUser } from '@/lib/authApi'
import { type Delegation, delegationKeys, revokeDelegation } from '@/lib/chain/delegation'
import type { TxStep } from '@/lib/chain/tx'
import { useAuthStore, type User } from '@/stores/auth'
import { useDelegationStore } from '@/stores/delegation'
import { type ClaimStep, claimUsername } from './username'
import { deleteJSON, getJSON, patchJSON, postJSON, putJSON } from '@/lib/http'

/** What the profile form sends: every field, so none is null (which means "leave it"). */
export type ProfilePatch = Sent<RequestBody<'patchUserSettings'>>

export type NotificationPrefs = Schema<'auth.NotificationPrefs'>

export type TwoFactorStatus = ResponseBody<'getTwoFactor'>

/** Gitea's token scope categories, each read or write (write implies read). */
export const SCOPE_CATEGORIES = [
  'repository',
  'issue',
  'user',
  'organization',
  'notification',
  'package',
  'activitypub',
  'misc',
  'admin',
] as const
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number]
export type ScopeLevel = 'read' | 'write'

/** A token scope as the node returns it: Gitea's (`write:repository`,
 * `all`, `public-only`) or dForge's older `read`, `write`, `admin`. */
export type Scope = string

export type AccessToken = Schema<'Token'>

/** A new token: sha1 is the token itself, shown once. */
export type NewAccessToken = Schema<'Token'>

export type SessionInfo = Schema<'Session'>

export type UsernameCheck = Optional<Schema<'index.Availability'>, 'owner' | 'reason'>

export const keys = {
  user: ['user'] as const,
  notifications: ['user', 'notifications'] as const,
  twoFactor: ['user', '2fa'] as const,
  tokens: (username: string) => ['user', 'tokens', username] as const,
  sessions: ['user', 'sessions'] as const,
  username: (name: string) => ['usernames', name.toLowerCase()] as const,
}

const tokensPath = (username: string) => `/api/v1/users/${encodeURIComponent(username)}/tokens`

export const useCurrentUser = () => useQuery({ queryKey: keys.user, queryFn: getCurrentUser })
export const saveProfile = (patch: ProfilePatch) => patchJSON<ServerUser>('/api/v1/user/settings', patch)

export const useNotificationPrefs = () =>
  useQuery({ queryKey: keys.notifications, queryFn: () => getJSON<NotificationPrefs>('/api/v1/user/notifications/preferences') })
export const saveNotificationPrefs = (prefs: NotificationPrefs) =>
  putJSON<NotificationPrefs | undefined>('/api/v1/user/notifications/preferences', prefs)

export const useTwoFactor = () => useQuery({ queryKey: keys.twoFactor, queryFn: () => getJSON<TwoFactorStatus>('/api/v1/user/2fa') })
export const setupTwoFactor = () => postJSON<{ secret: string; otpauthUrl: string }>('/api/v1/user/2fa/setup')
export const enableTwoFactor = (code: string) => postJSON<{ recoveryCodes: string[] }>('/api/v1/user/2fa/enable', { code })
export const disableTwoFactor = (code: string) => postJSON<void>('/api/v1/user/2fa/disable', { code })

export const useTokens = (username: string) =>
  useQuery({ queryKey: keys.tokens(username), queryFn: () => getJSON<AccessToken[]>(tokensPath(username)) })
export const createToken = (username: string, name: string, scopes: Scope[]) =>
  postJSON<NewAccessToken>(tokensPath(username), { name, scopes })
export const revokeToken = (username: string, id: number) => deleteJSON(`${tokensPath(username)}/${String(id)}`)

export const useSessions = () => useQuery({ queryKey: keys.sessions, queryFn: () => getJSON<SessionInfo[]>('/api/v1/user/sessions') })
export const revokeSession = (id: string | number) => deleteJSON(`/api/v1/user/sessions/${encodeURIComponent(String(id))}`)

export const checkUsername = (name: string) => getJSON<UsernameCheck>(`/api/v1/usernames/${encodeURIComponent(name)}`)

// --- mutations: each updates or refetches what it changed; a screen's own follow-up (clearing a box, saying "saved") comes in as onSuccess ---

/** Saves the profile; the answer becomes the cached and the signed-in user. */
export function useSaveProfile({ onSuccess, onError }: { onSuccess?: () => void; onError?: (err: Error) => void } = {}) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (updated) => {
      client.setQueryData(keys.user, updated)
      useAuthStore.getState().setUser(toStoreUser(updated))
      onSuccess?.()
    },
    onError,
  })
}

/** Saves the notification preferences (the server's answer, or what was sent, is cached). */
export function useSaveNotificationPrefs(onSuccess?: () => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: saveNotificationPrefs,
    onSuccess: (answer, sent) => {
      client.setQueryData(keys.notifications, answer ?? sent)
      onSuccess?.()
    },
  })
}

export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor })
}

function useInvalidateTwoFactor() {
  const client = useQueryClient()
  return () => {
    void client.invalidateQueries({ queryKey: keys.twoFactor })
    void client.invalidateQueries({ queryKey: keys.user })
  }
}

export function useEnableTwoFactor(onSuccess?: (recoveryCodes: string[]) => void) {
  const invalidate = useInvalidateTwoFactor()
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: ({ recoveryCodes }) => {
      onSuccess?.(recoveryCodes)
      invalidate()
    },
  })
}

export function useDisableTwoFactor(onSuccess?: () => void) {
  const invalidate = useInvalidateTwoFactor()
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => {
      onSuccess?.()
      invalidate()
    },
  })
}

export function useCreateToken(username: string, onSuccess?: (token: NewAccessToken) => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ name, scopes }: { name: string; scopes: Scope[] }) => createToken(username, name, scopes),
    onSuccess: (token) => {
      onSuccess?.(token)
      void client.invalidateQueries({ queryKey: keys.tokens(username) })
    },
  })
}

export function useRevokeToken(username: string, id: number) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => revokeToken(username, id), onSuccess: () => void client.invalidateQueries({ queryKey: keys.tokens(username) }) })
}

export function useRevokeSession(id: string | number) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => revokeSession(id), onSuccess: () => void client.invalidateQueries({ queryKey: keys.sessions }) })
}

/**
 * Claims a username on chain, reporting each step to onStep (null when done).
 * The relay answers once the index has the claim, so the user is already
 * renamed: the fresh user is cached and becomes the signed-in one.
 */
export function useClaimUsername(user: User, onStep: (step: ClaimStep | null) => void, onSuccess?: (username: string) => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (username: string) => claimUsername(username, user.walletAddress, onStep),
    onSuccess: async (_tx, username) => {
      onSuccess?.(username)
      const fresh = await getCurrentUser().catch(() => null)
      if (fresh) {
        client.setQueryData(keys.user, fresh)
        useAuthStore.getState().setUser(toStoreUser(fresh))
      } else {
        useAuthStore.getState().setUser({ ...user, username })
      }
      void client.invalidateQueries({ queryKey: ['usernames'] })
    },
    onSettled: () => onStep(null),
  })
}

/** Revokes a node's delegation on chain, reporting each step to onStep (null when done). */
export function useRevokeDelegation(walletAddress: string | undefined, d: Delegation, onStep: (step: TxStep | null) => void, onSuccess?: () => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => revokeDelegation(walletAddress!, d.delegate, onStep),
    onSuccess: () => {
      onSuccess?.()
      // Writes through this node now need a new authorization: the app-wide notice offers it.
      if (d.thisNode) useDelegationStore.getState().declined()
      return client.invalidateQueries({ queryKey: delegationKeys.list })
    },
    onSettled: () => onStep(null),
  })
}
