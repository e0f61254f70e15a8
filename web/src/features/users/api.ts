import { getJSON } from '@/lib/http'

/** A user as GET /api/v1/users/{username} gives it (Gitea's shape plus the wallet). */
export interface PublicUser {
  id: number
  login: string
  full_name: string
  avatar_url?: string
  description: string
  location: string
  website: string
  created: string
  wallet_address: string
  followers_count?: number
  following_count?: number
  /** Set when this node's moderators hid it; the API then masks its profile text for everyone but the node's admins. */
  hidden?: boolean
  hidden_reason?: string
}

/** A tip from GET /api/v1/chain/tips: a transfer that names what it thanks. */
export interface Tip {
  hash: string
  height: number
  from: string
  to: string
  amount: number
  target: string
  time: string
}

export interface TokenInfo {
  token: { symbol: string; decimals: number }
}

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
