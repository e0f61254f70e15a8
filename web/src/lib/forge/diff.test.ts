import { describe, expect, it } from 'vitest'
import { parseDiff, splitRows, takeRows, unifiedRows } from './diff'

const DIFF = `diff --git a/src/main.go b/src/main.go
index 3b18e51..a9c0b2d 100644
--- a/src/main.go
+++ b/src/main.go
@@ -1,5 +1,6 @@ package main
 package main
 
-import "fmt"
+import (
+\t"fmt"
+)
 
 func main() {
@@ -10,2 +11,2 @@ func main() {
-\tfmt.Println("hi")
+\tfmt.Println("hello")
 }
\\ No newline at end of file
diff --git a/README.md b/README.md
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/README.md
@@ -0,0 +1,2 @@
+# Engine
+An analytical engine.
diff --git a/old name.txt b/new name.txt
similarity index 90%
rename from old name.txt
rename to new name.txt
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/logo.png b/logo.png
index 1111111..2222222 100644
Binary files a/logo.png and b/logo.png differ
`

describe('parseDiff', () => {
  const files = parseDiff(DIFF)

  it('finds each file with its status and paths', () => {
    expect(files.map((f) => [f.status, f.oldPath, f.newPath, f.binary])).toEqual([
      ['modified', 'src/main.go', 'src/main.go', false],
      ['added', 'README.md', 'README.md', false],
      ['renamed', 'old name.txt', 'new name.txt', false],
      ['deleted', 'gone.txt', 'gone.txt', false],
      ['modified', 'logo.png', 'logo.png', true],
    ])
  })

  it('numbers lines on both sides and counts additions and deletions', () => {
    const [main] = files
    expect(main.additions).toBe(4)
    expect(main.deletions).toBe(2)
    expect(main.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [1, 5, 1, 6],
      [10, 2, 11, 2],
    ])
    expect(main.hunks[0].lines.map((l) => [l.kind, l.oldNo, l.newNo, l.text])).toEqual([
      ['context', 1, 1, 'package main'],
      ['context', 2, 2, ''],
      ['del', 3, null, 'import "fmt"'],
      ['add', null, 3, 'import ('],
      ['add', null, 4, '\t"fmt"'],
      ['add', null, 5, ')'],
      ['context', 4, 6, ''],
      ['context', 5, 7, 'func main() {'],
    ])
    const last = main.hunks[1].lines.at(-1)
    expect(last).toMatchObject({ kind: 'context', oldNo: 11, newNo: 12, text: '}', noNewline: true })
  })

  it('reads a new file from /dev/null and a deletion to it', () => {
    expect(files[1].hunks[0].lines.map((l) => [l.kind, l.newNo])).toEqual([
      ['add', 1],
      ['add', 2],
    ])
    expect(files[3].hunks[0].lines).toEqual([{ kind: 'del', text: 'bye', oldNo: 1, newNo: null }])
  })

  it('keeps a hunk line that looks like a file header inside its hunk', () => {
    const [f] = parseDiff('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- a/not-a-header\n+++ b/neither\n')
    expect(f.hunks[0].lines.map((l) => [l.kind, l.text])).toEqual([
      ['del', '-- a/not-a-header'],
      ['add', '++ b/neither'],
    ])
  })

  it('unquotes paths git quotes', () => {
    const [f] = parseDiff('diff --git "a/caf\\303\\251 menu.txt" "b/caf\\303\\251 menu.txt"\nnew file mode 100644\n')
    expect(f.newPath).toBe('café menu.txt')
    expect(f.status).toBe('added')
  })

  it('returns nothing for an empty diff', () => {
    expect(parseDiff('')).toEqual([])
  })
})

describe('diff rows', () => {
  const [main] = parseDiff(DIFF)

  it('unified: each hunk header, then its lines in order', () => {
    const rows = unifiedRows(main)
    expect(rows).toHaveLength(2 + 8 + 3)
    expect(rows[0]).toMatchObject({ type: 'hunk' })
    expect(rows[3]).toMatchObject({ type: 'line', line: { kind: 'del', oldNo: 3 } })
    expect(rows[9]).toMatchObject({ type: 'hunk' })
  })

  it('split: deletions face the additions that replace them, context on both sides', () => {
    const rows = splitRows(main)
    const pairs = rows.map((r) => (r.type === 'hunk' ? 'hunk' : [r.left?.oldNo ?? null, r.right?.newNo ?? null, r.left?.kind ?? '-', r.right?.kind ?? '-']))
    expect(pairs).toEqual([
      'hunk',
      [1, 1, 'context', 'context'],
      [2, 2, 'context', 'context'],
      [3, 3, 'del', 'add'],
      [null, 4, '-', 'add'],
      [null, 5, '-', 'add'],
      [4, 6, 'context', 'context'],
      [5, 7, 'context', 'context'],
      'hunk',
      [10, 11, 'del', 'add'],
      [11, 12, 'context', 'context'],
    ])
  })

  it('split: a run of deletions longer than its additions leaves the right side empty', () => {
    const [f] = parseDiff('--- a/x\n+++ b/x\n@@ -1,3 +1,1 @@\n-a\n-b\n+c\n-d\n')
    const rows = splitRows(f).filter((r) => r.type === 'pair')
    expect(rows.map((r) => (r.type === 'pair' ? [r.left?.text ?? null, r.right?.text ?? null] : null))).toEqual([
      ['a', 'c'],
      ['b', null],
      ['d', null],
    ])
  })

  it('pages a long diff: the budget cuts a file and leaves later ones for "show more"', () => {
    const files = parseDiff(DIFF)
    const first = takeRows(files, unifiedRows, 5)
    expect(first.shown).toHaveLength(1)
    expect(first.shown[0]).toMatchObject({ cut: true })
    expect(first.shown[0].rows).toHaveLength(5)
    const total = files.reduce((n, f) => n + Math.max(unifiedRows(f).length, 1), 0)
    expect(first.hidden).toBe(total - 5)
    const all = takeRows(files, unifiedRows, 1000)
    expect(all.shown).toHaveLength(files.length)
    expect(all.hidden).toBe(0)
  })
})
