import { useEffect, useState } from 'react'
import type { DiffFile, DiffLine } from '@/lib/forge/diff'

/** Files with more diff lines than this are shown plain: highlighting long inputs is slow. */
export const MAX_HIGHLIGHT_LINES = 4000

/**
 * The diff lines of a file as highlighted HTML, once highlight.js and the
 * grammar have loaded: each side's lines are highlighted together (the old
 * file's for deleted lines, the new file's for the rest) so constructs that
 * span lines keep their colours. Null until then, or when no grammar fits.
 */
export function useDiffHighlight(file: DiffFile, enabled = true): Map<DiffLine, string> | null {
  const [html, setHtml] = useState<Map<DiffLine, string> | null>(null)
  useEffect(() => {
    const lines = file.hunks.flatMap((h) => h.lines)
    if (!enabled || file.binary || lines.length === 0 || lines.length > MAX_HIGHLIGHT_LINES) return
    let live = true
    const oldSide = lines.filter((l) => l.kind !== 'add')
    const newSide = lines.filter((l) => l.kind !== 'del')
    import('@/lib/highlight')
      .then((m) =>
        Promise.all([
          oldSide.some((l) => l.kind === 'del') ? m.highlightLines(oldSide.map((l) => l.text), file.oldPath) : null,
          m.highlightLines(newSide.map((l) => l.text), file.newPath),
        ]),
      )
      .then(([oldHtml, newHtml]) => {
        if (!live || (oldHtml === null && newHtml === null)) return
        const map = new Map<DiffLine, string>()
        oldSide.forEach((l, i) => {
          if (l.kind === 'del' && oldHtml) map.set(l, oldHtml[i])
        })
        newSide.forEach((l, i) => {
          if (newHtml) map.set(l, newHtml[i])
        })
        setHtml(map)
      })
      .catch(() => {
        // Plain text is a fine fallback when a grammar fails to load.
      })
    return () => {
      live = false
    }
  }, [file, enabled])
  return html
}
