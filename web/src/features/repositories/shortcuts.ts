// The keyboard shortcuts of a repository's pages, as GitHub and Gitea users
// know them: "/" search, "t" go to file, "g" then i/p/c to issues, pull
// requests or code, "?" the list of them all. They never fire while the
// user is typing, with Ctrl, Alt or Meta held, or behind an open modal dialog.
import { useEffect, useRef } from 'react'

export type ShortcutAction = 'search' | 'goToFile' | 'help' | 'issues' | 'pulls' | 'code'

/** The shortcuts as the help dialog lists them, in order. */
export const SHORTCUTS: { keys: string[]; action: ShortcutAction }[] = [
  { keys: ['/'], action: 'search' },
  { keys: ['t'], action: 'goToFile' },
  { keys: ['g', 'c'], action: 'code' },
  { keys: ['g', 'i'], action: 'issues' },
  { keys: ['g', 'p'], action: 'pulls' },
  { keys: ['?'], action: 'help' },
]

const SINGLE: Record<string, ShortcutAction> = { '/': 'search', t: 'goToFile', '?': 'help' }
const AFTER_G: Record<string, ShortcutAction> = { c: 'code', i: 'issues', p: 'pulls' }

/** How long after "g" its second key still counts. */
export const SEQUENCE_MS = 1500

/** Whether keys sent to target are text being typed: a form field or editable content. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  if (target.closest('input, textarea, select')) return true
  const editable = target.closest('[contenteditable]')
  return editable !== null && editable.getAttribute('contenteditable') !== 'false'
}

/** Calls onAction for each shortcut pressed on the page while mounted. */
export function useShortcuts(onAction: (action: ShortcutAction) => void) {
  const handler = useRef(onAction)
  useEffect(() => {
    handler.current = onAction
  })
  useEffect(() => {
    let gAt = -Infinity
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return
      if (isTypingTarget(e.target) || document.querySelector('[aria-modal="true"]')) {
        gAt = -Infinity
        return
      }
      const now = Date.now()
      const afterG = now - gAt <= SEQUENCE_MS
      gAt = -Infinity
      const action = afterG ? AFTER_G[e.key] : SINGLE[e.key]
      if (action) {
        e.preventDefault()
        handler.current(action)
      } else if (e.key === 'g' && !afterG) {
        gAt = now
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])
}
