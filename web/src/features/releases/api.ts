import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { getPage, repoApi } from '@/lib/forge/api'
import { ApiError, deleteJSON, noteRefusal, patchJSON, postJSON } from '@/lib/http'
import { useAuthStore } from '@/stores/auth'

/** A release asset (Gitea's Attachment), with the CID and SHA-256 of its bytes. */
export type Asset = Schema<'Attachment'>

/** A release (Gitea's Release). */
export type Release = Schema<'Release'>

export type ReleaseInput = Schema<'CreateReleaseBody'>

const releasesApi = (owner: string, repo: string) => `${repoApi(owner, repo)}/releases`

export const releasesKey = (owner: string, repo: string) => ['repo', owner.toLowerCase(), repo.toLowerCase(), 'releases']

export function useReleases(owner: string, repo: string, page: number, limit: number) {
  return useQuery({
    queryKey: [...releasesKey(owner, repo), page, limit],
    queryFn: () => getPage<Release>(releasesApi(owner, repo), {}, page, limit),
    placeholderData: keepPreviousData,
  })
}

export function useInvalidateReleases(owner: string, repo: string) {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: releasesKey(owner, repo) })
}

export const createRelease = (owner: string, repo: string, input: ReleaseInput) => postJSON<Release>(releasesApi(owner, repo), input)
export const editRelease = (owner: string, repo: string, id: number, input: Partial<ReleaseInput>) =>
  patchJSON<Release>(`${releasesApi(owner, repo)}/${id}`, input)
export const deleteRelease = (owner: string, repo: string, id: number) => deleteJSON(`${releasesApi(owner, repo)}/${id}`)
export const deleteAsset = (owner: string, repo: string, release: number, asset: number) =>
  deleteJSON(`${releasesApi(owner, repo)}/${release}/assets/${asset}`)

/**
 * Uploads file as an asset of release id, as Gitea's multipart "attachment",
 * reporting the bytes sent (fetch cannot report upload progress; XHR can).
 */
export function uploadAsset(owner: string, repo: string, id: number, file: File, onProgress: (sent: number, total: number) => void): Promise<Asset> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${releasesApi(owner, repo)}/${id}/assets?name=${encodeURIComponent(file.name)}`)
    xhr.setRequestHeader('Accept', 'application/json')
    const csrf = useAuthStore.getState().csrfToken
    if (csrf) xhr.setRequestHeader('X-CSRF-Token', csrf)
    xhr.withCredentials = true
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size)
    xhr.onerror = () => reject(new Error('network error'))
    xhr.onload = () => {
      let body: { message?: string; code?: string } & Partial<Asset> = {}
      try {
        body = JSON.parse(xhr.responseText || '{}')
      } catch {
        // a proxy's HTML error page: the status says enough
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as Asset)
      else reject(noteRefusal(new ApiError(body.message ?? xhr.statusText, xhr.status, body.code ?? '')))
    }
    const form = new FormData()
    form.append('attachment', file, file.name)
    xhr.send(form)
  })
}

// --- mutations: each refetches the releases ---

/** Creates a release, or edits the one with this id; onDone runs once the releases are refetched. */
export function useSaveRelease(owner: string, repo: string, id: number | undefined, onDone?: () => void) {
  const invalidate = useInvalidateReleases(owner, repo)
  return useMutation({
    mutationFn: (input: ReleaseInput) => (id !== undefined ? editRelease(owner, repo, id, input) : createRelease(owner, repo, input)),
    onSuccess: async () => {
      await invalidate()
      onDone?.()
    },
  })
}

/** Publishes a draft release. */
export function usePublishRelease(owner: string, repo: string, id: number) {
  const invalidate = useInvalidateReleases(owner, repo)
  return useMutation({ mutationFn: () => editRelease(owner, repo, id, { draft: false }), onSuccess: () => invalidate() })
}

export function useDeleteRelease(owner: string, repo: string, id: number) {
  const invalidate = useInvalidateReleases(owner, repo)
  return useMutation({ mutationFn: () => deleteRelease(owner, repo, id), onSuccess: () => invalidate() })
}

/** Uploads an asset, reporting its progress to onProgress (null once done). */
export function useUploadAsset(owner: string, repo: string, release: number, onProgress: (p: { sent: number; total: number } | null) => void) {
  const invalidate = useInvalidateReleases(owner, repo)
  return useMutation({
    mutationFn: (file: File) => uploadAsset(owner, repo, release, file, (sent, total) => onProgress({ sent, total })),
    onSettled: () => onProgress(null),
    onSuccess: () => invalidate(),
  })
}

export function useDeleteAsset(owner: string, repo: string, release: number, asset: number) {
  const invalidate = useInvalidateReleases(owner, repo)
  return useMutation({ mutationFn: () => deleteAsset(owner, repo, release, asset), onSuccess: () => invalidate() })
}
