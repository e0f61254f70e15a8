import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { deleteJSON, getJSON, patchJSON, postJSON } from '@/lib/http'
import { repoApi } from '@/lib/forge/api'

/** A repository label, Gitea's shape: colour as six hex digits without '#'. */
export type Label = Schema<'Label'>

export type LabelInput = Pick<Label, 'name' | 'color' | 'description' | 'exclusive'>

/** Labels fit on one page: a repository has tens, not thousands (Gitea's clients page at 50). */
const LIMIT = 50

export const labelsKey = (owner: string, repo: string) => ['labels', owner.toLowerCase(), repo.toLowerCase()]

/** Every label of the repository, reading page after page until a short one. */
async function allLabels(owner: string, repo: string): Promise<Label[]> {
  const out: Label[] = []
  for (let page = 1; page <= 20; page++) {
    const got = await getJSON<Label[]>(`${repoApi(owner, repo)}/labels?page=${page}&limit=${LIMIT}`)
    out.push(...got)
    if (got.length < LIMIT) break
  }
  return out
}

export function useLabels(owner: string, repo: string) {
  return useQuery({ queryKey: labelsKey(owner, repo), queryFn: () => allLabels(owner, repo) })
}

export const createLabel = (owner: string, repo: string, input: LabelInput) => postJSON<Label>(`${repoApi(owner, repo)}/labels`, input)
export const editLabel = (owner: string, repo: string, id: number, input: Partial<LabelInput>) => patchJSON<Label>(`${repoApi(owner, repo)}/labels/${id}`, input)
export const deleteLabel = (owner: string, repo: string, id: number) => deleteJSON(`${repoApi(owner, repo)}/labels/${id}`)

/** A colour as #rrggbb, or null when it is not one. */
export function normalizeColor(c: string): string | null {
  const hex = c.trim().replace(/^#/, '').toLowerCase()
  return /^[0-9a-f]{6}$/.test(hex) ? `#${hex}` : null
}

/** Black or white text, whichever reads better on the colour (by its luminance). */
export function textOn(color: string): string {
  const hex = color.replace('#', '')
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) || 0)
  return r * 299 + g * 587 + b * 114 > 140000 ? '#000000' : '#ffffff'
}

/** Creates a label, or (given one) edits it: only what changed is sent. onDone runs once the labels are refetched. */
export function useSaveLabel(owner: string, repo: string, label: Label | undefined, onDone?: () => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (input: LabelInput) => {
      if (!label) return createLabel(owner, repo, input)
      const changed: Partial<LabelInput> = {}
      if (input.name !== label.name) changed.name = input.name
      if (input.color !== `#${label.color}`) changed.color = input.color
      if (input.description !== label.description) changed.description = input.description
      if (input.exclusive !== label.exclusive) changed.exclusive = input.exclusive
      return editLabel(owner, repo, label.id, changed)
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: labelsKey(owner, repo) })
      onDone?.()
    },
  })
}

export function useDeleteLabel(owner: string, repo: string, id: number) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => deleteLabel(owner, repo, id), onSuccess: () => client.invalidateQueries({ queryKey: labelsKey(owner, repo) }) })
}
