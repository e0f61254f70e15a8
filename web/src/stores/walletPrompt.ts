import { create } from 'zustand'

/**
 * A wallet prompt the app opened on its own, for a step the user did not
 * click "sign" for (a sensitive action the server asked their own signature
 * for): the shell says why the wallet is asking while it is open.
 */
interface WalletPromptState {
  /** Open prompts; more than one can wait in the wallet at once. */
  open: number
  opened: () => void
  closed: () => void
}

export const useWalletPromptStore = create<WalletPromptState>()((set) => ({
  open: 0,
  opened: () => set((s) => ({ open: s.open + 1 })),
  closed: () => set((s) => ({ open: Math.max(0, s.open - 1) })),
}))
