/**
 * Intl formatters kept per language and options, built on first use.
 * Building one costs far more than formatting with it: a repository
 * header's counts alone took 120 ms of a page's first render when every
 * call built its own.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>()

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(kind: string, lang: string | undefined, options: object, build: () => F): F {
  const key = `${kind} ${lang ?? ''} ${JSON.stringify(options)}`
  let f = formatters.get(key) as F | undefined
  if (f === undefined) {
    f = build()
    formatters.set(key, f)
  }
  return f
}

export const numberFormat = (lang: string | undefined, options: Intl.NumberFormatOptions = {}) =>
  cached('number', lang, options, () => new Intl.NumberFormat(lang, options))

export const dateTimeFormat = (lang: string | undefined, options: Intl.DateTimeFormatOptions = {}) =>
  cached('datetime', lang, options, () => new Intl.DateTimeFormat(lang, options))

export const relativeTimeFormat = (lang: string | undefined, options: Intl.RelativeTimeFormatOptions = {}) =>
  cached('relative', lang, options, () => new Intl.RelativeTimeFormat(lang, options))
