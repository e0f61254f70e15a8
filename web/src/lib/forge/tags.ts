// Tag writes (Gitea's routes and shapes): lightweight without a message, annotated with one.
import { useQueryClient } from '@tanstack/react-query'
import { deleteJSON, postJSON } from '@/lib/http'
import { repoApi, repoKeys, type Tag } from './api'

const tagPath = (tag: string) => tag.split('/').map(encodeURIComponent).join('/')

export const createTag = (owner: string, repo: string, tag: { tag_name: string; target: string; message: string }) => postJSON<Tag>(`${repoApi(owner, repo)}/tags`, tag)
export const deleteTag = (owner: string, repo: string, tag: string) => deleteJSON(`${repoApi(owner, repo)}/tags/${tagPath(tag)}`)

/** Refetches a repository's tags after a change. */
export function useInvalidateTags(owner: string, repo: string) {
  const qc = useQueryClient()
  return () => void qc.invalidateQueries({ queryKey: [...repoKeys.repo(owner, repo), 'tags'] })
}
