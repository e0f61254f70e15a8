import i18n, { type BackendModule, type ResourceKey } from 'i18next'
import LanguageDetector from 'i18next-browser-languagedetector'
import { initReactI18next } from 'react-i18next'
import enCommon from './locales/en/common.json'

/** The nine interface languages, each named in itself. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh', name: '简体中文' },
  { code: 'zh-TW', name: '繁體中文' },
  { code: 'ja', name: '日本語' },
  { code: 'ko', name: '한국어' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
  { code: 'de', name: 'Deutsch' },
  { code: 'ru', name: 'Русский' },
] as const

export const LANGUAGE_CODES: string[] = LANGUAGES.map((l) => l.code)
export const LANGUAGE_STORAGE_KEY = 'i18nextLng'

/** Maps a browser language tag to one of ours; Traditional Chinese variants go to zh-TW. */
export function normalizeLanguage(tag: string): string {
  const lower = tag.toLowerCase()
  if (/^zh-(hant|tw|hk|mo)\b/.test(lower)) return 'zh-TW'
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh'
  const base = lower.split('-')[0]
  return LANGUAGE_CODES.includes(base) ? base : 'en'
}

// Every locale file except English's shell strings is its own chunk, loaded
// when a screen asks for its namespace in the current language.
const loaders = import.meta.glob<{ default: ResourceKey }>('./locales/*/*.json')

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = loaders[`./locales/${language}/${namespace}.json`]
    if (!load) {
      callback(null, {})
      return
    }
    load().then(
      (mod) => callback(null, mod.default),
      (err: Error) => callback(err, null),
    )
  },
}

export function initI18n(): typeof i18n {
  if (i18n.isInitialized) return i18n
  i18n
    .use(lazyLocales)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: { en: { common: enCommon } },
      partialBundledLanguages: true,
      supportedLngs: LANGUAGE_CODES,
      fallbackLng: 'en',
      load: 'currentOnly',
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      detection: {
        order: ['localStorage', 'navigator'],
        caches: ['localStorage'],
        lookupLocalStorage: LANGUAGE_STORAGE_KEY,
        convertDetectedLanguage: normalizeLanguage,
      },
    })
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng
  })
  document.documentElement.lang = i18n.resolvedLanguage ?? 'en'
  return i18n
}

export default i18n
