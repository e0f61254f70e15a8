/** The four original tracks, in fixed order, served from the site itself. */
export const TRACKS = [
  { title: 'Polyhymnia', src: '/music/polyhymnia.mp3' },
  { title: 'The One', src: '/music/the-one.mp3' },
  { title: 'Unexpected Directions', src: '/music/unexpected-directions.mp3' },
  { title: 'Vulcan', src: '/music/vulcan.mp3' },
] as const

export const DEFAULT_VOLUME = 0.5
export const AUTOPLAY_DELAY_MS = 1000

/** Next and previous wrap around the list. */
export function wrapTrack(index: number): number {
  return ((index % TRACKS.length) + TRACKS.length) % TRACKS.length
}
