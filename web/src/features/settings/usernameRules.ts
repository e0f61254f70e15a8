// The chain's rules for usernames (internal/chain/names), checked as the user
// types so a name the chain would refuse is never sent. Reserved words are
// left to the server's check, which says why.

/** Letters, digits, '-', '_' and '.', 1 to 39 of them. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{1,39}$/

/** The name an account has until it claims one: "user-" and 20 (once 12) hex digits of its address. */
const DEFAULT_NAME = /^user-(?:[0-9a-f]{12}|[0-9a-f]{20})$/i

export function isDefaultUsername(name: string): boolean {
  return DEFAULT_NAME.test(name)
}

/** Why the chain would refuse name; each is a key under account.username.rules in 'settings'. */
export type UsernameProblem = 'shape' | 'edges' | 'git' | 'default'

export function usernameProblem(name: string): UsernameProblem | null {
  if (!USERNAME_PATTERN.test(name)) return 'shape'
  if (/^[-_.]|[-_.]$|[-_.]{2}/.test(name)) return 'edges'
  if (name.toLowerCase().endsWith('.git')) return 'git'
  if (isDefaultUsername(name)) return 'default'
  return null
}
