// The settings endpoints, with TanStack Query hooks for the reads.
import { useQuery } from '@tanstack/react-query'
import { getCurrentUser, type ServerUser } from '@/lib/authApi'
import { deleteJSON, getJSON, patchJSON, postJSON, putJSON } from '@/lib/http'

export interface ProfilePatch {
  full_name: string
  description: string
  location: string
  website: string
  email: string
}

export interface NotificationPrefs {
  email: boolean
  mentions: boolean
  reviews: boolean
  governance: boolean
  rewards: boolean
}

export interface TwoFactorStatus {
  enabled: boolean
  recoveryCodesLeft: number
}

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

export interface AccessToken {
  id: number
  name: string
  token_last_eight: string
  scopes: Scope[]
  created_at: string
}

/** A new token: sha1 is the token itself, shown once. */
export interface NewAccessToken extends AccessToken {
  sha1: string
}

export interface SessionInfo {
  id: string | number
  current: boolean
  createdAt: string
  lastSeenAt: string
  userAgent: string
  ip: string
}

export interface UsernameCheck {
  name: string
  available: boolean
  owner?: string
  reason?: string
}

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
