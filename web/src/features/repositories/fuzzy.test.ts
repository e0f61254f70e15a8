import { describe, expect, it } from 'vitest'
import { fuzzyFilter, fuzzyMatch, highlightRuns } from './fuzzy'

const PATHS = [
  'README.md',
  'cmd/dforge/main.go',
  'internal/api/commits.go',
  'internal/api/code.go',
  'internal/gitstore/tree.go',
  'web/src/features/repositories/CodeBrowser.tsx',
  'web/src/features/repositories/RepoLayout.tsx',
  'docs/readme-guide.md',
]

describe('fuzzyMatch', () => {
  it('matches the query characters in order, ignoring case and spaces', () => {
    expect(fuzzyMatch('MAIN', 'cmd/dforge/main.go')?.positions).toEqual([11, 12, 13, 14])
    expect(fuzzyMatch('ig tr', 'internal/gitstore/tree.go')).not.toBeNull()
    expect(fuzzyMatch('niam', 'cmd/dforge/main.go')).toBeNull()
    expect(fuzzyMatch('zz', 'README.md')).toBeNull()
  })

  it('prefers the file name to the directories', () => {
    // "internal/api/code.go" also holds c-o-d-e spread over the directories.
    const m = fuzzyMatch('code', 'internal/api/code.go')
    expect(m?.positions).toEqual([13, 14, 15, 16])
  })

  it('falls back to the whole path when the name alone does not match', () => {
    const m = fuzzyMatch('apicom', 'internal/api/commits.go')
    expect(m?.positions).toEqual([9, 10, 11, 13, 14, 15])
  })

  it('takes the tightest window so highlights sit together', () => {
    // A left-to-right scan alone would take the "a" of "xa" and the "b" of "xab".
    expect(fuzzyMatch('ab', 'xa/xab/c.go')?.positions).toEqual([4, 5])
  })

  it('matches everything with an empty query', () => {
    expect(fuzzyMatch('  ', 'a/b')).toEqual({ path: 'a/b', score: 0, positions: [] })
  })
})

describe('fuzzyFilter', () => {
  it('ranks a file-name match above a scattered one', () => {
    const found = fuzzyFilter('readme', PATHS).map((m) => m.path)
    expect(found).toEqual(['README.md', 'docs/readme-guide.md'])
  })

  it('ranks word starts (CodeBrowser for "cb") first', () => {
    expect(fuzzyFilter('cb', PATHS)[0].path).toBe('web/src/features/repositories/CodeBrowser.tsx')
  })

  it('ranks an exact file name first', () => {
    expect(fuzzyFilter('tree.go', PATHS)[0].path).toBe('internal/gitstore/tree.go')
  })

  it('returns the first paths unscored for an empty query, and at most limit', () => {
    expect(fuzzyFilter('', PATHS, 3).map((m) => m.path)).toEqual(PATHS.slice(0, 3))
    expect(fuzzyFilter('o', PATHS, 2)).toHaveLength(2)
  })

  it('returns nothing when nothing matches', () => {
    expect(fuzzyFilter('qqq', PATHS)).toEqual([])
  })
})

describe('highlightRuns', () => {
  it('cuts a path into matched and unmatched runs', () => {
    expect(highlightRuns('main.go', [0, 1, 5])).toEqual([
      { text: 'ma', match: true },
      { text: 'in.', match: false },
      { text: 'g', match: true },
      { text: 'o', match: false },
    ])
  })
})
