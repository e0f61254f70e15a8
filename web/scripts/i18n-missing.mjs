// Lists, per language and namespace, the keys English has that a locale lacks
// (and keys it has that English does not). Usage: node scripts/i18n-missing.mjs [lang...]
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../src/i18n/locales/', import.meta.url).pathname
const plural = /_(zero|one|two|few|many|other)$/
const flat = (o, p = '') =>
  typeof o !== 'object' || o === null ? [p] : Object.entries(o).flatMap(([k, v]) => flat(v, p ? `${p}.${k}` : k))
const keysOf = (file) => new Set(flat(JSON.parse(readFileSync(file, 'utf8'))).map((k) => k.replace(plural, '')))

const langs = process.argv.slice(2).length ? process.argv.slice(2) : ['zh', 'zh-TW', 'ja', 'ko', 'es', 'fr', 'de', 'ru']
let problems = 0
for (const nsFile of readdirSync(join(root, 'en'))) {
  const en = keysOf(join(root, 'en', nsFile))
  for (const lang of langs) {
    const file = join(root, lang, nsFile)
    if (!existsSync(file)) {
      console.log(`${lang}/${nsFile}: missing file`)
      problems++
      continue
    }
    const have = keysOf(file)
    const missing = [...en].filter((k) => !have.has(k))
    const extra = [...have].filter((k) => !en.has(k))
    if (missing.length || extra.length) {
      problems++
      console.log(`${lang}/${nsFile}: missing ${missing.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`)
    }
  }
}
// Strings scripts/i18n-fill.mjs copied from English, not yet translated.
const untranslated = JSON.parse(readFileSync(new URL('../src/i18n/untranslated.json', import.meta.url), 'utf8'))
for (const [lang, namespaces] of Object.entries(untranslated)) {
  for (const [ns, paths] of Object.entries(namespaces)) console.log(`${lang}/${ns}.json: untranslated ${paths.join(', ')}`)
}
console.log(problems ? `${problems} locale files need work` : 'all locales complete')
process.exitCode = problems ? 1 : 0
