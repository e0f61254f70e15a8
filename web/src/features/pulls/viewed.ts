import { useCallback, useState } from 'react'
import { type DiffFile, filePath, fileVersion } from '@/lib/forge/diff'

/** Which files of a pull request a reviewer has viewed: path -> the version of the file's change then. */
type Marks = Record<string, string>

/** The localStorage key of one reviewer's marks on one pull request. */
export const viewedKey = (user: string, repo: string, number: number) => `dforge.viewed:${user.toLowerCase()}:${repo.toLowerCase()}#${number}`

function read(key: string): Marks {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '{}')
    return v && typeof v === 'object' ? (v as Marks) : {}
  } catch {
    return {}
  }
}

/**
 * The files a reviewer has marked viewed, kept in this browser per user,
 * repository and pull request. A mark holds the version of the file's
 * change it was made on (its new blob id, else a hash of its patch), so a
 * later push that changes the file un-views it, as on GitHub.
 */
export function useViewedFiles(user: string, repo: string, number: number) {
  const key = viewedKey(user, repo, number)
  const [state, setState] = useState(() => ({ key, marks: read(key) }))
  // Another pull request or user: its own marks.
  if (state.key !== key) setState({ key, marks: read(key) })
  const marks = state.key === key ? state.marks : read(key)
  const isViewed = useCallback((f: DiffFile) => marks[filePath(f)] === fileVersion(f), [marks])
  const setViewed = useCallback(
    (f: DiffFile, viewed: boolean) => {
      const next = { ...read(key) }
      if (viewed) next[filePath(f)] = fileVersion(f)
      else delete next[filePath(f)]
      try {
        if (Object.keys(next).length === 0) localStorage.removeItem(key)
        else localStorage.setItem(key, JSON.stringify(next))
      } catch {
        // Storage full or blocked: the mark still holds for this page.
      }
      setState({ key, marks: next })
    },
    [key],
  )
  return { isViewed, setViewed }
}
