// Fuzzy matching of file paths for "Go to file": the query's characters must
// appear in the path in order, not necessarily side by side. Matches in the
// file name, at the start of a word and in runs rank first. Linear in the
// path's length, so a keystroke over tens of thousands of paths stays quick.

export interface FuzzyMatch {
  path: string
  score: number
  /** Indexes into path of the matched characters, ascending. */
  positions: number[]
}

const SEPARATORS = '/-_. '

/**
 * Where query matches text from `from` on, as the shortest window ending at
 * the first place a left-to-right scan completes (fzf's first algorithm):
 * scan forward to find the end, then backward from it to find the latest
 * start. Both lower-cased. null when text does not hold the query in order.
 */
function matchWindow(query: string, text: string, from: number): number[] | null {
  let q = 0
  let end = -1
  for (let i = from; i < text.length; i++) {
    if (text[i] === query[q] && ++q === query.length) {
      end = i
      break
    }
  }
  if (end < 0) return null
  const positions = new Array<number>(query.length)
  q = query.length - 1
  for (let i = end; i >= from && q >= 0; i--) {
    if (text[i] === query[q]) positions[q--] = i
  }
  return positions
}

/** Whether the character at i starts a word: after a separator, or a capital after a lower-case letter. */
function startsWord(text: string, i: number): boolean {
  if (i === 0) return true
  const prev = text[i - 1]
  if (SEPARATORS.includes(prev)) return true
  const c = text[i]
  return c !== c.toLowerCase() && prev === prev.toLowerCase() && prev !== prev.toUpperCase()
}

function score(path: string, positions: number[], nameStart: number): number {
  let s = 0
  for (let k = 0; k < positions.length; k++) {
    const p = positions[k]
    s += 1
    if (k > 0 && positions[k - 1] === p - 1) s += 5
    if (p === nameStart) s += 10
    else if (startsWord(path, p)) s += 6
    if (p >= nameStart) s += 2
  }
  // Spread-out matches and long paths rank lower.
  s -= Math.min(positions[positions.length - 1] - positions[0] + 1 - positions.length, 20) * 0.5
  s -= path.length * 0.01
  return s
}

/**
 * Matches query (spaces ignored, case-insensitive) against path: tried in
 * the file name first, then across the whole path. null when it does not match.
 */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | null {
  const q = query.replace(/\s+/g, '').toLowerCase()
  if (q === '') return { path, score: 0, positions: [] }
  const lower = path.toLowerCase()
  const nameStart = path.lastIndexOf('/') + 1
  const positions = matchWindow(q, lower, nameStart) ?? matchWindow(q, lower, 0)
  if (!positions) return null
  let s = score(path, positions, nameStart)
  if (lower.slice(nameStart) === q) s += 50
  return { path, score: s, positions }
}

/** The paths matching query, best first (ties: shorter, then alphabetical); at most limit of them. */
export function fuzzyFilter(query: string, paths: readonly string[], limit = 50): FuzzyMatch[] {
  if (query.trim() === '') return paths.slice(0, limit).map((path) => ({ path, score: 0, positions: [] }))
  const found: FuzzyMatch[] = []
  for (const path of paths) {
    const m = fuzzyMatch(query, path)
    if (m) found.push(m)
  }
  found.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return found.slice(0, limit)
}

/** path cut into runs of matched and unmatched characters, for highlighting. */
export function highlightRuns(path: string, positions: readonly number[]): { text: string; match: boolean }[] {
  const marked = new Set(positions)
  const runs: { text: string; match: boolean }[] = []
  for (let i = 0; i < path.length; i++) {
    const match = marked.has(i)
    const last = runs[runs.length - 1]
    if (last && last.match === match) last.text += path[i]
    else runs.push({ text: path[i], match })
  }
  return runs
}
