// Offline copies of API answers. The service worker (vite.config.ts) answers
// an API read from its cache when the network fails, and marks that answer
// with SAVED_COPY_HEADER; the answer keeps the Date header the node sent, so
// the page can say how old its data is.
import { useSyncExternalStore } from 'react'

/** The header the service worker adds to an answer it served from its cache. */
export const SAVED_COPY_HEADER = 'X-Dforge-Saved-Copy'

/** When the node sent a saved copy (ms since the epoch), or null for a fresh answer. */
export function savedAt(res: Pick<Response, 'headers'>): number | null {
  if (!res.headers.get(SAVED_COPY_HEADER)) return null
  const date = Date.parse(res.headers.get('Date') ?? '')
  return Number.isFinite(date) ? date : null
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
]

/**
 * The age of a copy saved at `saved` as a whole number of the largest unit
 * that fits ("5 minutes", "2 days", "40 seconds").
 * A clock behind the node's never makes the age negative.
 */
export function ageOf(saved: number, now: number): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const seconds = Math.max(0, Math.floor((now - saved) / 1000))
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return { value: Math.floor(seconds / size), unit }
  }
  return { value: seconds, unit: 'second' }
}

/** The age as words in the language ("5 minutes ago", "vor 5 Minuten"). */
export function formatAge(saved: number, now: number, language: string): string {
  const { value, unit } = ageOf(saved, now)
  return new Intl.RelativeTimeFormat(language, { numeric: 'always' }).format(-value, unit)
}

// The oldest saved copy the page has shown since it loaded: navigation is a
// full page load, so this is the oldest data on the current page.
let oldest: number | null = null
const listeners = new Set<() => void>()

/** Records an API answer; a saved copy older than any before updates the notice. */
export function noteResponse(res: Pick<Response, 'headers'>): void {
  const at = savedAt(res)
  if (at === null || (oldest !== null && oldest <= at)) return
  oldest = at
  for (const l of listeners) l()
}

function subscribe(onChange: () => void) {
  listeners.add(onChange)
  return () => listeners.delete(onChange)
}

/** When the oldest saved copy on this page was sent, or null when every answer was fresh. */
export function useOldestSavedCopy(): number | null {
  return useSyncExternalStore(subscribe, () => oldest, () => null)
}

/** Forgets what was recorded (for tests). */
export function resetSavedCopies(): void {
  oldest = null
  for (const l of listeners) l()
}
