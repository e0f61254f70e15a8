import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Every CSS custom property a stylesheet or component uses must be defined
// in the theme: an undefined token silently falls back (or to nothing), and
// the page looks right in one theme only.
// (Read from disk: vitest hands stylesheets to the tests as empty.)
const src = join(__dirname, '..')

function read(suffix: string): string {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
  return files
    .filter((f) => f.endsWith(suffix) && !f.includes('.test.'))
    .map((f) => readFileSync(join(src, f), 'utf8'))
    .join('\n')
}

function names(text: string, pattern: RegExp): Set<string> {
  return new Set([...text.matchAll(pattern)].map((m) => m[1]))
}

describe('design tokens', () => {
  const all = read('.css')
  const defined = names(all, /(--[a-z0-9-]+)\s*:/g)

  it('defines every token a stylesheet or component uses', () => {
    const used = names(all + read('.tsx') + read('.ts'), /var\(\s*(--[a-z0-9-]+)/g)
    const missing = [...used].filter((n) => !defined.has(n))
    expect(missing).toEqual([])
  })

  it('has a spacing scale', () => {
    for (const step of ['--space-1', '--space-2', '--space-3', '--space-4', '--space-5', '--space-6']) {
      expect(defined.has(step)).toBe(true)
    }
  })
})
