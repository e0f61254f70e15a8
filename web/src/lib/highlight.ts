// Syntax highlighting, loaded only when a file is shown: highlight.js core
// and the grammar the file needs, each its own chunk.
import type { HLJSApi, LanguageFn } from 'highlight.js'

type Loader = () => Promise<{ default: LanguageFn }>

const GRAMMARS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  python: () => import('highlight.js/lib/languages/python'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
}

const BY_EXTENSION: Record<string, string> = {
  sh: 'bash', bash: 'bash', zsh: 'bash',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp',
  css: 'css',
  diff: 'diff', patch: 'diff',
  go: 'go',
  ini: 'ini', toml: 'ini', cfg: 'ini',
  java: 'java',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  json: 'json',
  md: 'markdown', markdown: 'markdown',
  py: 'python',
  rs: 'rust',
  sql: 'sql',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml',
  yml: 'yaml', yaml: 'yaml',
}

const BY_NAME: Record<string, string> = { dockerfile: 'dockerfile', makefile: 'makefile', gnumakefile: 'makefile' }

/** The grammar for a file name, or null when none of ours fits. */
export function languageFor(filename: string): string | null {
  const base = filename.split('/').pop()?.toLowerCase() ?? ''
  if (BY_NAME[base]) return BY_NAME[base]
  const dot = base.lastIndexOf('.')
  return dot > 0 ? (BY_EXTENSION[base.slice(dot + 1)] ?? null) : null
}

let core: Promise<HLJSApi> | null = null

async function loadCore(): Promise<HLJSApi> {
  core ??= import('highlight.js/lib/core').then((m) => m.default)
  return core
}

/**
 * The code as highlight.js HTML (it escapes the source, so the result is
 * safe to insert), or null when no grammar fits.
 */
export async function highlight(code: string, filename: string): Promise<string | null> {
  const language = languageFor(filename)
  if (!language) return null
  const hljs = await loadCore()
  if (!hljs.getLanguage(language)) hljs.registerLanguage(language, (await GRAMMARS[language]()).default)
  return hljs.highlight(code, { language, ignoreIllegals: true }).value
}

/**
 * Splits highlight.js HTML into one string per source line, closing the
 * spans still open at a line's end and reopening them on the next, so each
 * line stands alone (as a diff row does) with its colours kept.
 */
export function splitHighlighted(html: string): string[] {
  const out: string[] = []
  const open: string[] = []
  let line = ''
  for (const [token] of html.matchAll(/<span[^>]*>|<\/span>|\n|[^<\n]+/g)) {
    if (token === '\n') {
      out.push(line + '</span>'.repeat(open.length))
      line = open.join('')
    } else {
      if (token === '</span>') open.pop()
      else if (token.startsWith('<span')) open.push(token)
      line += token
    }
  }
  out.push(line)
  return out
}

/**
 * Lines of one file highlighted together (so a string or comment spanning
 * lines keeps its colour), one HTML string per line; null when no grammar fits.
 */
export async function highlightLines(lines: string[], filename: string): Promise<string[] | null> {
  const html = await highlight(lines.join('\n'), filename)
  if (html === null) return null
  const split = splitHighlighted(html)
  return split.length === lines.length ? split : null
}
