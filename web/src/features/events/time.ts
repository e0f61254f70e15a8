// Times of events: the API speaks UTC instants; people read and type wall
// times in the event's own zone. Intl does the zone arithmetic, so no zone
// data ships with the app.

/** The browser's zone, or UTC when it reports none. */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
}

/** Every zone the browser knows, UTC and the given ones included, sorted. */
export function zoneList(...must: string[]): string[] {
  let zones: string[] = []
  try {
    zones = Intl.supportedValuesOf('timeZone')
  } catch {
    zones = []
  }
  return [...new Set([...zones, 'UTC', ...must.filter(Boolean)])].sort()
}

/** Whether the browser knows zone. */
export function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

function wallParts(ms: number, zone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms))
  const out: Record<string, number> = {}
  for (const p of parts) if (p.type !== 'literal') out[p.type] = Number(p.value)
  return out
}

/** How far zone's wall clock is ahead of UTC at instant ms. */
function offsetAt(ms: number, zone: string): number {
  const p = wallParts(ms, zone)
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second)
  return wall - Math.floor(ms / 1000) * 1000
}

/**
 * The instant (RFC 3339, UTC) of a datetime-local value ("2030-05-01T18:00")
 * read as a wall time in zone; null for an empty or malformed value.
 */
export function wallToUTC(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local)
  if (!m) return null
  const guess = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], m[6] ? +m[6] : 0)
  // Twice: the offset at the guess may differ from the offset at the answer across a change of offset.
  let ms = guess - offsetAt(guess, zone)
  ms = guess - offsetAt(ms, zone)
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The datetime-local value of instant iso as a wall time in zone. */
export function utcToWall(iso: string, zone: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return ''
  const p = wallParts(ms, zone)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour % 24)}:${two(p.minute)}`
}

/** An event's span in the reader's language, in the event's zone. */
export function formatSpan(startIso: string, endIso: string, zone: string, language: string): string {
  const opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short', timeZone: knownZone(zone) ? zone : 'UTC' }
  try {
    return new Intl.DateTimeFormat(language, opts).formatRange(new Date(startIso), new Date(endIso))
  } catch {
    const f = new Intl.DateTimeFormat(language, opts)
    return `${f.format(new Date(startIso))} – ${f.format(new Date(endIso))}`
  }
}

/** The month and day of an event's start, for the date badge of a card. */
export function dateBadge(startIso: string, zone: string, language: string): { month: string; day: string } {
  const timeZone = knownZone(zone) ? zone : 'UTC'
  const d = new Date(startIso)
  return {
    month: new Intl.DateTimeFormat(language, { month: 'short', timeZone }).format(d),
    day: new Intl.DateTimeFormat(language, { day: 'numeric', timeZone }).format(d),
  }
}
