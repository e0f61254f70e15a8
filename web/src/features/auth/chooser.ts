import i18n from 'i18next'
import type { ComponentType } from 'react'

export type Chooser = ComponentType<{ onClose: () => void }>

let chooser: Promise<Chooser> | null = null

/** The wallet chooser's chunk and its 'auth' strings, fetched once: by Login, or by the "sign in again" prompt. */
export function loadChooser(): Promise<Chooser> {
  chooser ??= Promise.all([import('./WalletChooser'), i18n.loadNamespaces('auth')])
    .then(([mod]) => mod.default)
    .catch((err: unknown) => {
      chooser = null // offline for a moment: the next click tries again
      throw err
    })
  return chooser
}
