import { describe, expect, it } from 'vitest'
import { nextVotingEnd, storedVotingEnd, storeVotingEnd } from './countdown'

describe('the voting countdown estimate', () => {
  it('starts from the first reading', () => {
    expect(nextVotingEnd(null, 1_000, 10, 6_000)).toEqual({ end: 61_000, blockMs: 6_000 })
  })

  it('moves the block time only part of the way towards a new reading', () => {
    expect(nextVotingEnd({ end: 61_000, blockMs: 6_000 }, 7_000, 9, 5_000)).toEqual({ end: 7_000 + 9 * 5_800, blockMs: 5_800 })
  })

  it('follows the block count at once when blocks come faster', () => {
    expect(nextVotingEnd({ end: 61_000, blockMs: 6_000 }, 2_000, 1, 6_000).end).toBe(8_000)
  })

  it('never moves later when blocks slow down, so the time left only counts down', () => {
    let estimate = null
    let shown = Infinity
    // Blocks come every 6 s, then every 9 s: the raw estimate of the time left would go up.
    for (let i = 0, now = 0; i < 20; i++) {
      const pace = i < 10 ? 6_000 : 9_000
      now += pace
      estimate = nextVotingEnd(estimate, now, 20 - i, pace)
      expect(estimate.end - now).toBeLessThanOrEqual(shown)
      shown = estimate.end - now
    }
  })

  it('keeps the estimate for the tab, per proposal, and reads nothing from a malformed entry', () => {
    sessionStorage.clear()
    expect(storedVotingEnd(4)).toBeNull()
    storeVotingEnd(4, { end: 90_000, blockMs: 5_000 })
    expect(storedVotingEnd(4)).toEqual({ end: 90_000, blockMs: 5_000 })
    expect(storedVotingEnd(5)).toBeNull()
    sessionStorage.setItem('dforge.votingEnd.5', '{"end":"soon"}')
    expect(storedVotingEnd(5)).toBeNull()
    // A reload reads the kept estimate first, so a slower raw reading does not move the end later.
    const reloaded = nextVotingEnd(storedVotingEnd(4), 30_000, 15, 9_000)
    expect(reloaded.end).toBe(90_000)
  })
})
