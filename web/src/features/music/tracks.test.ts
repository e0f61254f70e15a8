import { describe, expect, it } from 'vitest'
import { DEFAULT_VOLUME, TRACKS, wrapTrack } from './tracks'

describe('tracks', () => {
  it('are the four tracks in fixed order, from the site itself', () => {
    expect(TRACKS.map((t) => t.title)).toEqual(['Polyhymnia', 'The One', 'Unexpected Directions', 'Vulcan'])
    for (const t of TRACKS) expect(t.src).toMatch(/^\/music\/[a-z-]+\.mp3$/)
    expect(DEFAULT_VOLUME).toBe(0.5)
  })

  it('wrap around both ways', () => {
    expect(wrapTrack(4)).toBe(0)
    expect(wrapTrack(-1)).toBe(3)
    expect(wrapTrack(2)).toBe(2)
  })
})
