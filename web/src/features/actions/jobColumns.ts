import type { Job } from './api'

/**
 * The jobs of a run in columns by how deep their needs go: jobs needing
 * nothing first, then those needing only them, and so on, as GitHub draws
 * the graph. Matrix jobs share a key and so a column; a need on a key the run
 * lacks, or a cycle, counts as no further depth.
 */
export function jobColumns(jobs: Job[]): Job[][] {
  const byKey = new Map<string, Job[]>()
  for (const job of jobs) {
    const key = job.key ?? job.name
    byKey.set(key, [...(byKey.get(key) ?? []), job])
  }
  const depth = new Map<string, number>()
  const visiting = new Set<string>()
  const depthOf = (key: string): number => {
    const known = depth.get(key)
    if (known !== undefined) return known
    if (visiting.has(key)) return 0
    visiting.add(key)
    const needs = (byKey.get(key) ?? []).flatMap((j) => j.needs ?? []).filter((n) => byKey.has(n))
    const d = needs.length ? 1 + Math.max(...needs.map(depthOf)) : 0
    visiting.delete(key)
    depth.set(key, d)
    return d
  }
  const columns: Job[][] = []
  for (const job of [...jobs].sort((a, b) => a.id - b.id)) {
    const d = depthOf(job.key ?? job.name)
    ;(columns[d] ??= []).push(job)
  }
  return columns.filter(Boolean)
}
