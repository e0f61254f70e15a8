import { useQuery } from '@tanstack/react-query'
import { NotFoundError } from '@/components/QueryState'
import { apiError, apiFetch } from '@/lib/http'
import { type ContentEntry, repoApi, encodePath, repoKeys } from '@/lib/forge/api'

/** Files above this are not drawn (a download link instead of a frozen page). */
export const MAX_VIEW_BYTES = 1024 * 1024
/** Files above this are shown without highlighting, which is slow on long inputs. */
export const MAX_HIGHLIGHT_BYTES = 256 * 1024

/** Bytes of a base64 string (the contents API's encoding). */
export function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64.replace(/\s+/g, ''))
  const bytes = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i)
  return bytes
}

/** git's rule: a NUL byte in the first 8000 bytes makes a file binary. */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000)
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true
  return false
}

const IMAGE = /\.(png|jpe?g|gif|webp|avif|bmp|ico|svg)$/i
export const isImage = (name: string) => IMAGE.test(name)

/** A file's bytes: from the contents answer when it carries them, else from the raw endpoint. */
export function useFileBytes(owner: string, repo: string, entry: ContentEntry, ref: string, enabled: boolean) {
  return useQuery({
    queryKey: [...repoKeys.repo(owner, repo), 'blob', entry.sha || `${ref}:${entry.path}`],
    enabled,
    staleTime: Infinity,
    queryFn: async (): Promise<Uint8Array> => {
      if (typeof entry.content === 'string' && (entry.encoding ?? 'base64') === 'base64') return fromBase64(entry.content)
      const path = `${repoApi(owner, repo)}/raw/${encodePath(entry.path)}?ref=${encodeURIComponent(ref)}`
      const res = await apiFetch(path, { headers: { Accept: '*/*' } })
      if (res.status === 404) throw new NotFoundError(`not found: ${path}`)
      if (!res.ok) throw await apiError(res)
      return new Uint8Array(await res.arrayBuffer())
    },
  })
}
