import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

export const DELEGATION_STORAGE_KEY = 'delegation-state'

/**
 * Whether this node may sign the signed-in user's forge actions:
 * - 'ok': authorized, or nothing known against it;
 * - 'declined': the user said no to the second sign-in signature (or
 *   revoked this node), so writes will be refused until they authorize it;
 * - 'expired': a write was refused with not_delegated (the delegation ran
 *   out or was revoked elsewhere): the user must sign in again.
 */
export type DelegationStatus = 'ok' | 'declined' | 'expired'

interface DelegationState {
  status: DelegationStatus
  /** The server's words for the refusal, when a write was refused. */
  message: string | null
  declined: () => void
  expired: (message: string) => void
  /** Authorized again, or signed out: nothing to say. */
  clear: () => void
}

export const useDelegationStore = create<DelegationState>()(
  persist(
    (set) => ({
      status: 'ok',
      message: null,
      declined: () => set({ status: 'declined', message: null }),
      expired: (message) => set({ status: 'expired', message }),
      clear: () => set({ status: 'ok', message: null }),
    }),
    {
      name: DELEGATION_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      // Every navigation is a full page load: the notice must outlive it,
      // or a user who declined would only learn it from a refused write.
      partialize: (s) => ({ status: s.status }),
    },
  ),
)
