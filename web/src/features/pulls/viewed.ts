import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import type { Schema } from '@/lib/apiSchema'
import { type DiffFile, filePath, fileVersion } from '@/lib/forge/diff'
import { apiError, apiFetch, getJSON } from '@/lib/http'
import { pullApi, pullsKey } from './api'

/** A file a reviewer has marked viewed, and the version of its change then. */
export type ViewedMark = Schema<'forge.ViewedFile'>

/** Marks a file viewed at version (viewed) or takes the mark off. */
async function sendMark(owner: string, repo: string, number: number, mark: ViewedMark, viewed: boolean): Promise<void> {
  const res = await apiFetch(`${pullApi(owner, repo, number)}/viewed`, {
    method: viewed ? 'PUT' : 'DELETE',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(viewed ? mark : { path: mark.path }),
  })
  if (!res.ok) throw await apiError(res)
}

/** A mark the reviewer has just made or taken off, not yet confirmed by the node. */
type Pending = { viewed: boolean; version: string; seq: number }

/**
 * The files of a pull request the signed-in reviewer has marked viewed,
 * kept for them on the node (whatever browser they come back with). A mark
 * holds the version of the file's change it was made on (its new blob id,
 * else a hash of its patch), so a later push that changes the file
 * un-views it, as on GitHub.
 *
 * A click shows at once: the mark is held in React state, in the same
 * render as the click, until the node's list has been read again. (An
 * optimistic write to the query cache would wait for any read in flight to
 * be cancelled, so the box would not change under the click.) Marks are
 * sent one at a time, so a quick mark and unmark reach the node in order. A
 * mark the node refuses is dropped, and `failed` says so.
 */
export function useViewedFiles(user: string, owner: string, repo: string, number: number) {
  const qc = useQueryClient()
  const key = pullsKey(owner, repo, number, 'viewed', user.toLowerCase())
  const marks = useQuery({
    queryKey: key,
    queryFn: () => getJSON<ViewedMark[]>(`${pullApi(owner, repo, number)}/viewed`),
    enabled: user !== '',
  })
  const [pending, setPending] = useState<ReadonlyMap<string, Pending>>(new Map())
  const seq = useRef(0)
  const settle = useCallback((path: string, at: number) => {
    setPending((p) => {
      if (p.get(path)?.seq !== at) return p
      const next = new Map(p)
      next.delete(path)
      return next
    })
  }, [])
  const byPath = useMemo(() => new Map((marks.data ?? []).map((m) => [m.path, m.version])), [marks.data])
  const isViewed = useCallback(
    (f: DiffFile) => {
      const held = pending.get(filePath(f))
      if (held) return held.viewed && held.version === fileVersion(f)
      return byPath.get(filePath(f)) === fileVersion(f)
    },
    [byPath, pending],
  )
  const change = useMutation({
    scope: { id: key.join('/') },
    mutationFn: ({ mark, viewed }: { mark: ViewedMark; viewed: boolean; at: number }) => sendMark(owner, repo, number, mark, viewed),
    onError: (_err, { mark, at }) => settle(mark.path, at),
    onSuccess: async (_data, { mark, at }) => {
      // A read begun before the mark was kept would answer without it:
      // drop it and read again.
      await qc.cancelQueries({ queryKey: key })
      await qc.invalidateQueries({ queryKey: key })
      settle(mark.path, at)
    },
  })
  const { mutate } = change
  const setViewed = useCallback(
    (f: DiffFile, viewed: boolean) => {
      const mark = { path: filePath(f), version: fileVersion(f) }
      const at = ++seq.current
      setPending((p) => new Map(p).set(mark.path, { viewed, version: mark.version, seq: at }))
      mutate({ mark, viewed, at })
    },
    [mutate],
  )
  return { isViewed, setViewed, failed: change.isError }
}
