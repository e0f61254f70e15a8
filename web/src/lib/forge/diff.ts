// A parser for git's unified diff (`git diff`, GET .../pulls/{n}.diff and
// .../git/commits/{sha}.diff) and the rows the diff viewer draws from it, in
// unified and split (side by side) layout.

export type LineKind = 'context' | 'add' | 'del'

export interface DiffLine {
  kind: LineKind
  text: string
  /** The line's number in the old file (null for an added line). */
  oldNo: number | null
  /** The line's number in the new file (null for a deleted line). */
  newNo: number | null
  /** Followed by "\ No newline at end of file". */
  noNewline?: boolean
}

export interface Hunk {
  header: string
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: DiffLine[]
}

export type FileStatus = 'added' | 'deleted' | 'modified' | 'renamed'

export interface DiffFile {
  oldPath: string
  newPath: string
  status: FileStatus
  binary: boolean
  hunks: Hunk[]
  additions: number
  deletions: number
  /** The new side's blob id, from the "index old..new" line (full with --full-index); absent for a deleted file or a diff without it. */
  newBlob?: string
}

/** The path a file is known by: the new one, or the old one for a deleted file. */
export const filePath = (f: DiffFile) => (f.status === 'deleted' ? f.oldPath : f.newPath)

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

/** Undoes git's quoting of a path with unusual characters ("a/x\tb"), and strips the a/ or b/ prefix. */
function cleanPath(raw: string): string {
  let p = raw.trim()
  if (p.startsWith('"') && p.endsWith('"')) p = unquote(p.slice(1, -1))
  if (p === '/dev/null') return p
  return p.replace(/^[ab]\//, '')
}

function unquote(s: string): string {
  const bytes: number[] = []
  const utf8 = new TextEncoder()
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c !== '\\') {
      bytes.push(...utf8.encode(c))
      continue
    }
    const n = s[++i]
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(s.slice(i, i + 3), 8))
      i += 2
    } else {
      bytes.push(({ n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 } as Record<string, number>)[n] ?? n.charCodeAt(0))
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

/** The two paths of a "diff --git a/x b/y" line, guessing where they split when they contain spaces. */
function gitHeaderPaths(rest: string): [string, string] {
  if (rest.startsWith('"')) {
    const end = rest.indexOf('" ', 1)
    if (end > 0) return [cleanPath(rest.slice(0, end + 1)), cleanPath(rest.slice(end + 2))]
  }
  // The same path on both sides is the common case: split in the middle.
  const half = (rest.length - 1) / 2
  if (Number.isInteger(half) && rest[half] === ' ' && rest.slice(2, half) === rest.slice(half + 3)) {
    return [cleanPath(rest.slice(0, half)), cleanPath(rest.slice(half + 1))]
  }
  const at = rest.indexOf(' b/')
  return at > 0 ? [cleanPath(rest.slice(0, at)), cleanPath(rest.slice(at + 1))] : [cleanPath(rest), cleanPath(rest)]
}

function newFile(oldPath: string, newPath: string): DiffFile {
  return { oldPath, newPath, status: 'modified', binary: false, hunks: [], additions: 0, deletions: 0 }
}

/** Parses a unified diff of any number of files. Lines it does not know are skipped. */
export function parseDiff(text: string): DiffFile[] {
  const files: DiffFile[] = []
  let file: DiffFile | null = null
  let hunk: Hunk | null = null
  let oldNo = 0
  let newNo = 0
  const open = (oldPath: string, newPath: string): DiffFile => {
    const f = newFile(oldPath, newPath)
    files.push(f)
    return f
  }
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()

  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    // Inside a hunk, every line up to its counts belongs to it, even one that looks like a header.
    if (hunk && (oldNo < hunk.oldStart + hunk.oldLines || newNo < hunk.newStart + hunk.newLines) && file) {
      const mark = line[0]
      if (mark === '+') {
        hunk.lines.push({ kind: 'add', text: line.slice(1), oldNo: null, newNo: newNo++ })
        file.additions++
        continue
      }
      if (mark === '-') {
        hunk.lines.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++, newNo: null })
        file.deletions++
        continue
      }
      if (mark === ' ' || line === '') {
        hunk.lines.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ })
        continue
      }
    }
    if (line.startsWith('\\')) {
      const last = hunk?.lines.at(-1)
      if (last) last.noNewline = true
      continue
    }
    if (line.startsWith('diff --git ')) {
      const [a, b] = gitHeaderPaths(line.slice('diff --git '.length))
      file = open(a, b)
      hunk = null
      continue
    }
    const m = HUNK.exec(line)
    if (m) {
      file ??= open('', '')
      hunk = {
        header: line,
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      }
      file.hunks.push(hunk)
      oldNo = hunk.oldStart
      newNo = hunk.newStart
      continue
    }
    if (line.startsWith('--- ')) {
      const p = cleanPath(line.slice(4))
      // A diff without "diff --git" headers starts each file here.
      if (!file || file.hunks.length > 0) {
        file = open(p, p)
        hunk = null
      }
      if (p === '/dev/null') file.status = 'added'
      else file.oldPath = p
      continue
    }
    if (!file) continue
    if (line.startsWith('+++ ')) {
      const p = cleanPath(line.slice(4))
      if (p === '/dev/null') file.status = 'deleted'
      else file.newPath = p
    } else if (line.startsWith('index ')) {
      const blob = /^index [0-9a-f]+\.\.([0-9a-f]+)/.exec(line)?.[1]
      if (blob && !/^0+$/.test(blob)) file.newBlob = blob
    } else if (line.startsWith('new file mode')) file.status = 'added'
    else if (line.startsWith('deleted file mode')) file.status = 'deleted'
    else if (line.startsWith('rename from ')) {
      file.oldPath = cleanPath(line.slice('rename from '.length))
      file.status = 'renamed'
    } else if (line.startsWith('rename to ')) {
      file.newPath = cleanPath(line.slice('rename to '.length))
      file.status = 'renamed'
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true
  }
  for (const f of files) {
    if (f.oldPath === '/dev/null') f.oldPath = f.newPath
    if (f.newPath === '/dev/null') f.newPath = f.oldPath
  }
  return files
}

export type UnifiedRow = { type: 'hunk'; hunk: Hunk } | { type: 'line'; line: DiffLine }

/** The rows of the unified layout: each hunk's header, then its lines in order. */
export function unifiedRows(file: DiffFile): UnifiedRow[] {
  return file.hunks.flatMap((hunk): UnifiedRow[] => [{ type: 'hunk', hunk }, ...hunk.lines.map((line): UnifiedRow => ({ type: 'line', line }))])
}

export type SplitRow = { type: 'hunk'; hunk: Hunk } | { type: 'pair'; left: DiffLine | null; right: DiffLine | null }

/**
 * The rows of the split layout: context on both sides, and each run of
 * deletions beside the run of additions that follows it, line by line; the
 * longer run's extra lines face an empty cell.
 */
export function splitRows(file: DiffFile): SplitRow[] {
  const rows: SplitRow[] = []
  for (const hunk of file.hunks) {
    rows.push({ type: 'hunk', hunk })
    const { lines } = hunk
    let i = 0
    while (i < lines.length) {
      if (lines[i].kind === 'context') {
        rows.push({ type: 'pair', left: lines[i], right: lines[i] })
        i++
        continue
      }
      const dels: DiffLine[] = []
      const adds: DiffLine[] = []
      while (i < lines.length && lines[i].kind === 'del') dels.push(lines[i++])
      while (i < lines.length && lines[i].kind === 'add') adds.push(lines[i++])
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) rows.push({ type: 'pair', left: dels[k] ?? null, right: adds[k] ?? null })
    }
  }
  return rows
}

/**
 * How much of a long diff to draw: the files in order with at most budget
 * rows in all (a file past the budget is cut, later ones are left out), and
 * how many rows are left for "show more".
 */
export function takeRows<R>(files: DiffFile[], rowsOf: (f: DiffFile) => R[], budget: number): { shown: { file: DiffFile; rows: R[]; cut: boolean }[]; hidden: number } {
  const shown: { file: DiffFile; rows: R[]; cut: boolean }[] = []
  let left = budget
  let hidden = 0
  for (const file of files) {
    const rows = rowsOf(file)
    if (left <= 0) {
      hidden += Math.max(rows.length, 1)
      continue
    }
    const take = rows.slice(0, left)
    shown.push({ file, rows: take, cut: take.length < rows.length })
    hidden += rows.length - take.length
    left -= Math.max(take.length, 1)
  }
  return { shown, hidden }
}

/** A short, stable hash of text (FNV-1a, 32 bits, as hex): for ids and versions, not for security. */
export function hashText(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}

/** The id of a file's section in a diff view, for links to it (a file tree's). */
export const diffFileId = (f: DiffFile) => `diff-${hashText(filePath(f))}`

/**
 * What a file's change is, so a mark like "viewed" can lapse when it
 * changes: the new blob's id, else a hash of the patch.
 */
export function fileVersion(f: DiffFile): string {
  if (f.newBlob) return f.newBlob
  const patch = f.hunks.map((h) => h.header + '\n' + h.lines.map((l) => (l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' ') + l.text).join('\n')).join('\n')
  return `patch-${hashText(`${f.status}\n${f.oldPath}\n${f.newPath}\n${patch}`)}`
}
