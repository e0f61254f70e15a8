import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

export const AUTH_STORAGE_KEY = 'auth-storage'

export interface User {
  username: string
  walletAddress?: string
  displayName?: string
  /** One of the node's admins: the header links the admin console. The server decides; this only shows the link. */
  isAdmin?: boolean
}

interface AuthState {
  user: User | null
  token: string | null
  /** The session's CSRF token: sent as X-CSRF-Token on every write made with the session cookie. */
  csrfToken: string | null
  isAuthenticated: boolean
  isLoading: boolean
  login: (user: User, token: string) => void
  /** A wallet sign-in: the session itself is an HttpOnly cookie script cannot read, so only the user and its CSRF token are kept. */
  startSession: (user: User, csrfToken: string) => void
  setUser: (user: User) => void
  logout: () => void
  setLoading: (isLoading: boolean) => void
  connectWallet: (walletAddress: string) => void
  disconnectWallet: () => void
}

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      user: null,
      token: null,
      csrfToken: null,
      isAuthenticated: false,
      isLoading: false,
      login: (user, token) => set({ user, token, isAuthenticated: true, isLoading: false }),
      startSession: (user, csrfToken) => set({ user, csrfToken, isAuthenticated: true, isLoading: false }),
      setUser: (user) => set({ user, isAuthenticated: true }),
      logout: () => set({ user: null, token: null, csrfToken: null, isAuthenticated: false }),
      setLoading: (isLoading) => set({ isLoading }),
      // A wallet attaches to the signed-in user; with no user there is nothing to attach to.
      connectWallet: (walletAddress) => set((s) => ({ user: s.user ? { ...s.user, walletAddress } : null })),
      disconnectWallet: () =>
        set((s) => {
          if (!s.user) return { user: null }
          const { walletAddress: _dropped, ...rest } = s.user
          return { user: rest }
        }),
    }),
    {
      name: AUTH_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      // The CSRF token is kept only while there is one, so a write right after
      // a page load works before the session check answers.
      partialize: (s) => ({
        user: s.user,
        token: s.token,
        isAuthenticated: s.isAuthenticated,
        ...(s.csrfToken ? { csrfToken: s.csrfToken } : {}),
      }),
    },
  ),
)
