import { describe, expect, it } from 'vitest'
import { LANGUAGE_CODES, normalizeLanguage } from './i18n'
import untranslated from './untranslated.json'

const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { eager: true, import: 'default' })

function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix]
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

function load(lang: string, ns: string): Record<string, unknown> {
  const data = files[`./locales/${lang}/${ns}.json`]
  if (!data) throw new Error(`missing locale file ${lang}/${ns}.json`)
  return data
}

const folders = [...new Set(Object.keys(files).map((f) => f.split('/')[2]))]

// Plural forms differ per language (Russian has _few and _many), so compare base keys.
const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '')

const namespaces = Object.keys(files)
  .filter((f) => f.startsWith('./locales/en/'))
  .map((f) => f.slice('./locales/en/'.length, -'.json'.length))

describe('locales', () => {
  it('has a folder for each of the nine languages', () => {
    expect(folders.sort()).toEqual([...LANGUAGE_CODES].sort())
  })

  for (const lang of LANGUAGE_CODES.filter((l) => l !== 'en')) {
    for (const ns of namespaces) {
      it(`${lang}/${ns} has exactly the English keys`, () => {
        const want = [...new Set(keys(load('en', ns)).map(base))].sort()
        const got = [...new Set(keys(load(lang, ns)).map(base))].sort()
        expect(got).toEqual(want)
      })
    }
  }

  it('has no empty strings', () => {
    for (const lang of LANGUAGE_CODES) {
      for (const ns of namespaces) {
        const flat = keys(load(lang, ns))
        const data = load(lang, ns)
        for (const k of flat) {
          const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], data)
          expect(v, `${lang}/${ns}:${k}`).not.toBe('')
        }
      }
    }
  })

  // scripts/i18n-fill.mjs copies a new English string into every locale and
  // lists it here until a translator replaces it; make release-check prints
  // the list.
  it('lists as untranslated only strings that exist and still read as English', () => {
    const list = untranslated as Record<string, Record<string, string[]>>
    const at = (o: unknown, path: string) => path.split('.').reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], o)
    let count = 0
    for (const [lang, namespaces] of Object.entries(list)) {
      expect(LANGUAGE_CODES).toContain(lang)
      for (const [ns, paths] of Object.entries(namespaces)) {
        for (const path of paths) {
          count++
          expect(at(load(lang, ns), path), `${lang}/${ns}:${path}`).toBe(at(load('en', ns), path))
        }
      }
    }
    if (count) console.info(`${count} strings are untranslated (src/i18n/untranslated.json)`)
  })

  it('translates Russian rather than copying English', () => {
    expect(load('ru', 'common')).not.toEqual(load('en', 'common'))
  })
})

describe('normalizeLanguage', () => {
  it.each([
    ['zh-Hant', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh-TW', 'zh-TW'],
    ['zh-CN', 'zh'],
    ['zh-Hans', 'zh'],
    ['zh', 'zh'],
    ['de-AT', 'de'],
    ['ja', 'ja'],
    ['pt-BR', 'en'],
  ])('%s -> %s', (tag, want) => {
    expect(normalizeLanguage(tag)).toBe(want)
  })
})
