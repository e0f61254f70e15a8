import { useTranslation } from 'react-i18next'
import { dateTimeFormat, numberFormat, relativeTimeFormat } from '@/lib/intl'

/** The first seven hex digits of a commit id, as git shows them. */
export const shortSha = (sha: string) => sha.slice(0, 7)

/** The first line of a commit message. */
export const subject = (message: string) => message.split('\n', 1)[0]

/** Formatters in the reader's language: dates, relative times, counts and sizes. */
export function useForgeFormat() {
  const { i18n } = useTranslation()
  const lang = i18n.resolvedLanguage ?? 'en'
  const count = (n: number) => numberFormat(lang).format(n)
  return {
    count,
    date: (iso: string | undefined) =>
      iso ? dateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(iso)) : '',
    /** The exact date and time, for the title of a relative one. */
    exact: (iso: string | undefined) =>
      iso ? dateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso)) : '',
    /** "3 days ago"; the exact time belongs in a title attribute. */
    ago: (iso: string | undefined, now = Date.now()) => {
      if (!iso) return ''
      const rtf = relativeTimeFormat(lang, { numeric: 'auto' })
      const secs = Math.round((new Date(iso).getTime() - now) / 1000)
      const steps: [Intl.RelativeTimeFormatUnit, number][] = [
        ['year', 31536000],
        ['month', 2592000],
        ['week', 604800],
        ['day', 86400],
        ['hour', 3600],
        ['minute', 60],
      ]
      for (const [unit, size] of steps) if (Math.abs(secs) >= size) return rtf.format(Math.round(secs / size), unit)
      return rtf.format(secs, 'second')
    },
    bytes: (n: number) => {
      const units = ['B', 'KiB', 'MiB', 'GiB']
      let v = n
      let u = 0
      while (v >= 1024 && u < units.length - 1) {
        v /= 1024
        u++
      }
      return `${numberFormat(lang, { maximumFractionDigits: u === 0 ? 0 : 1 }).format(v)} ${units[u]}`
    },
  }
}
