import type { ListingInput } from './api'

/** Bounds of a listing, as the chain holds them (internal/chain/forge/listing.go). */
export const MAX_NAME = 100
export const MAX_DESCRIPTION = 2000
export const MAX_URL = 2048

/** What a URL template may hold in braces. */
export const PLACEHOLDERS = ['{owner}', '{repo}', '{repo_id}'] as const

/** The problems of a listing's fields, as i18n keys under form.errors, by field. */
export type ListingErrors = Partial<Record<keyof ListingInput, 'required' | 'tooLong' | 'spaces' | 'control' | 'noEvents' | 'httpUrl' | 'braces'>>

/** Whether s holds a control character: C0, DEL or C1 for one line; C0 but tab, newline and carriage return for a body. */
function hasControl(s: string, body: boolean): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0
    if (body ? c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d : c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true
  }
  return false
}

/** Whether s is an absolute http(s) URL with a host and no credentials, as a webhook's URL must be. */
export function isHttpUrl(s: string): boolean {
  if (/\s/.test(s)) return false
  try {
    const u = new URL(s)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && u.username === '' && u.password === ''
  } catch {
    return false
  }
}

/** The URL template's problem: its braces hold only the placeholders, and filled it is an http(s) URL. */
export function urlTemplateError(t: string): ListingErrors['url_template'] {
  if (t.trim() === '') return 'required'
  if (new TextEncoder().encode(t).length > MAX_URL) return 'tooLong'
  let sample = t
  for (const p of PLACEHOLDERS) sample = sample.split(p).join('x')
  if (/[{}]/.test(sample)) return 'braces'
  return isHttpUrl(sample) ? undefined : 'httpUrl'
}

/** Checks a listing as the chain will, so the form names the field before anything is sent. */
export function validateListing(l: ListingInput): ListingErrors {
  const errors: ListingErrors = {}
  const chars = (s: string) => [...s].length
  if (l.name.trim() === '') errors.name = 'required'
  else if (chars(l.name) > MAX_NAME) errors.name = 'tooLong'
  else if (l.name.trim() !== l.name) errors.name = 'spaces'
  else if (hasControl(l.name, false)) errors.name = 'control'
  if (chars(l.description) > MAX_DESCRIPTION) errors.description = 'tooLong'
  else if (hasControl(l.description, true)) errors.description = 'control'
  if (l.events.length === 0) errors.events = 'noEvents'
  const url = urlTemplateError(l.url_template)
  if (url) errors.url_template = url
  if (l.homepage !== '' && !isHttpUrl(l.homepage)) errors.homepage = 'httpUrl'
  return errors
}
