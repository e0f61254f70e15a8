// The auth endpoints the sign-in, the header and settings call, in the
// shapes the server sends. The chain's endpoints are in lib/chain/api.ts.
import type { Optional, Schema } from '@/lib/apiSchema'
import { getJSON, postJSON } from '@/lib/http'
import type { User } from '@/stores/auth'

// The server's user (Gitea-shaped): the email is left out (omitempty) but for
// the user themself, as are the moderation marks and followed_by_me unless set.
export type ServerUser = Optional<Schema<'User'>, 'email' | 'hidden' | 'hidden_reason' | 'followed_by_me'>

export type Session = Omit<Schema<'SessionBody'>, 'user'> & { user: ServerUser }

export type SiweAnswer = Session | { twoFactorRequired: true; challenge: string }

/** The auth store's user for a server user. */
export function toStoreUser(u: ServerUser): User {
  const user: User = { username: u.login, walletAddress: u.wallet_address }
  if (u.full_name) user.displayName = u.full_name
  if (u.is_admin) user.isAdmin = true
  return user
}

// A nonce is single use: never let a cache answer for the server.
export const authNonce = () => getJSON<{ nonce: string; expiresAt: string }>('/api/v1/auth/nonce', { cache: 'no-store' })

export const postSiwe = (message: string, signature: string) => postJSON<SiweAnswer>('/api/v1/auth/siwe', { message, signature })

export const postTwoFactor = (challenge: string, code: string) => postJSON<Session>('/api/v1/auth/2fa', { challenge, code })

export const getSession = () => getJSON<Session>('/api/v1/auth/session', { cache: 'no-store' })

export const postLogout = () => postJSON<void>('/api/v1/auth/logout')

export const getCurrentUser = () => getJSON<ServerUser>('/api/v1/user')
