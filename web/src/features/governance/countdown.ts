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

/** The key the estimate for a proposal is kept under in sessionStorage, so a reload goes on counting down from it. */
const storageKey = (proposal: number) => `dforge.votingEnd.${proposal}`

/** The estimate kept for proposal in this tab, if any and well-formed. */
export function storedVotingEnd(proposal: number): VotingEnd | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(storageKey(proposal)) ?? 'null') as Partial<VotingEnd> | null
    return v && Number.isFinite(v.end) && Number.isFinite(v.blockMs) && (v.blockMs ?? 0) > 0 ? { end: v.end!, blockMs: v.blockMs! } : null
  } catch {
    return null
  }
}

/** Keeps estimate for proposal in this tab (storage that refuses is left alone: the count still runs on the page). */
export function storeVotingEnd(proposal: number, estimate: VotingEnd) {
  try {
    sessionStorage.setItem(storageKey(proposal), JSON.stringify(estimate))
  } catch {
    // Private mode or a full storage: nothing to keep, nothing lost.
  }
}
