// Fills every locale from English, so that adding an English string is one
// edit: a key English has and a locale lacks gets the English text, and is
// listed in src/i18n/untranslated.json until a translator replaces it; a key
// English no longer has is dropped. Locale order follows English. The locale
// test checks the list; `make i18n-status` prints it.
// Usage: node scripts/i18n-fill.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../src/i18n/', import.meta.url).pathname
const locales = join(root, 'locales')
const listFile = join(root, 'untranslated.json')
const plural = /_(zero|one|two|few|many|other)$/

const read = (file) => JSON.parse(readFileSync(file, 'utf8'))
const write = (file, data) => writeFileSync(file, JSON.stringify(data, null, 2) + '\n')
const isObject = (v) => typeof v === 'object' && v !== null

// fill returns have shaped like en: have's own text where it has one,
// else en's text, whose path goes into missing. A plural group (count_one,
// count_other…) is kept whole and in have's order when have translates it,
// since languages differ in their forms (Russian adds _few and _many).
function fill(en, have, path, missing) {
  const out = {}
  const base = (k) => k.replace(plural, '')
  const done = new Set()
  for (const [k, v] of Object.entries(en)) {
    const at = path ? `${path}.${k}` : k
    if (isObject(v)) {
      out[k] = fill(v, isObject(have?.[k]) ? have[k] : {}, at, missing)
      continue
    }
    if (plural.test(k)) {
      if (done.has(base(k))) continue
      done.add(base(k))
      const forms = Object.entries(have ?? {}).filter(([h, t]) => typeof t === 'string' && plural.test(h) && base(h) === base(k))
      if (forms.length) {
        for (const [h, t] of forms) out[h] = t
        continue
      }
      for (const [e, t] of Object.entries(en).filter(([e]) => plural.test(e) && base(e) === base(k))) {
        out[e] = t
        missing.push(path ? `${path}.${e}` : e)
      }
      continue
    }
    if (typeof have?.[k] === 'string') {
      out[k] = have[k]
    } else {
      out[k] = v
      missing.push(at)
    }
  }
  return out
}

const previous = read(listFile)
const list = {}
for (const lang of readdirSync(locales).filter((l) => l !== 'en').sort()) {
  for (const nsFile of readdirSync(join(locales, 'en')).sort()) {
    const ns = nsFile.replace(/\.json$/, '')
    let have = {}
    try {
      have = read(join(locales, lang, nsFile))
    } catch {
      // A namespace new to this locale: every key is untranslated.
    }
    const missing = []
    const filled = fill(read(join(locales, 'en', nsFile)), have, '', missing)
    write(join(locales, lang, nsFile), filled)
    // Still English where it was marked before: still untranslated.
    const en = read(join(locales, 'en', nsFile))
    const at = (o, p) => p.split('.').reduce((x, k) => x?.[k], o)
    const kept = (previous[lang]?.[ns] ?? []).filter((p) => at(filled, p) !== undefined && at(filled, p) === at(en, p))
    const all = [...new Set([...kept, ...missing])].sort()
    if (all.length) (list[lang] ??= {})[ns] = all
  }
}
write(listFile, list)
const count = Object.values(list).flatMap((n) => Object.values(n)).flat().length
console.log(count ? `${count} strings are untranslated: see src/i18n/untranslated.json` : 'every locale is translated')
