import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
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

/**
 * The files of a pull request the signed-in reviewer has marked viewed,
 * kept for them on the node (whatever browser they come back with). A mark
 * holds the version of the file's change it was made on (its new blob id,
 * else a hash of its patch), so a later push that changes the file
 * un-views it, as on GitHub. A mark shows at once; one the node refuses is
 * taken back, and `failed` says so.
 */
export function useViewedFiles(user: string, owner: string, repo: string, number: number) {
  const qc = useQueryClient()
  const key = pullsKey(owner, repo, number, 'viewed', user.toLowerCase())
  const marks = useQuery({
    queryKey: key,
    queryFn: () => getJSON<ViewedMark[]>(`${pullApi(owner, repo, number)}/viewed`),
    enabled: user !== '',
  })
  const byPath = useMemo(() => new Map((marks.data ?? []).map((m) => [m.path, m.version])), [marks.data])
  const isViewed = useCallback((f: DiffFile) => byPath.get(filePath(f)) === fileVersion(f), [byPath])
  const change = useMutation({
    mutationFn: ({ mark, viewed }: { mark: ViewedMark; viewed: boolean }) => sendMark(owner, repo, number, mark, viewed),
    onMutate: async ({ mark, viewed }) => {
      await qc.cancelQueries({ queryKey: key })
      const before = qc.getQueryData<ViewedMark[]>(key)
      const others = (before ?? []).filter((m) => m.path !== mark.path)
      qc.setQueryData<ViewedMark[]>(key, viewed ? [...others, mark] : others)
      return { before }
    },
    onError: (_err, _vars, context) => qc.setQueryData(key, context?.before),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  })
  const { mutate } = change
  const setViewed = useCallback((f: DiffFile, viewed: boolean) => mutate({ mark: { path: filePath(f), version: fileVersion(f) }, viewed }), [mutate])
  return { isViewed, setViewed, failed: change.isError }
}
