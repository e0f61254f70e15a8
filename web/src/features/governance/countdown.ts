/** How much each new reading of the block time moves the smoothed one. */
const SMOOTHING = 0.2

export interface VotingEnd {
  /** When voting is estimated to end, in ms since the epoch. */
  end: number
  /** The smoothed time between blocks, in ms. */
  blockMs: number
}

/**
 * The next estimate of when voting ends, from the previous one and a new
 * reading: blocks left (exact) and the recent average block time (noisy, so
 * smoothed). The estimate never moves later, so the time left shown only
 * counts down; when the chain slows, the block count catches it up.
 */
export function nextVotingEnd(previous: VotingEnd | null, now: number, blocksLeft: number, blockMs: number): VotingEnd {
  const smoothed = previous === null ? blockMs : previous.blockMs + SMOOTHING * (blockMs - previous.blockMs)
  const end = now + blocksLeft * smoothed
  return { end: previous === null ? end : Math.min(previous.end, end), blockMs: smoothed }
}
