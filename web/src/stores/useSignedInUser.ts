import { type User, useAuthStore } from '@/stores/auth'

/** The signed-in user, or null when signed out. */
export function useSignedInUser(): User | null {
  const user = useAuthStore((s) => s.user)
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated)
  return isAuthenticated ? user : null
}
