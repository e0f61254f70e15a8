// Proposals as GET /api/v1/governance/* sends them, and the arithmetic the
// proposal page shows: all in integers (BigInt), as the chain computes it.
import { type Micro, toBigInt } from '@/lib/chain/amount'

/** A proposal's lifecycle: active -> passed | rejected, passed -> executed | failed. */
export const PROPOSAL_STATUSES = ['active', 'passed', 'rejected', 'executed', 'failed'] as const
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number]

/** The list's filter: every proposal, or those in one status. */
export type ProposalFilter = 'all' | ProposalStatus
export const PROPOSAL_FILTERS: readonly ProposalFilter[] = ['all', ...PROPOSAL_STATUSES]

/** What a proposal does once passed: nothing (text), or change a parameter, spend from the treasury, change a validator, grant or revoke a community role, escrow a grant (features/grants). */
export const PROPOSAL_TYPES = ['text', 'param', 'spend', 'validator', 'role', 'grant'] as const
export type ProposalType = (typeof PROPOSAL_TYPES)[number]

/** A role proposal grants or revokes one of the community roles (COMMUNITY_ROLES). */
export { COMMUNITY_ROLES, type CommunityRole } from '@/lib/community'
export const ROLE_ACTIONS = ['grant', 'revoke'] as const
export type RoleAction = (typeof ROLE_ACTIONS)[number]

export const VOTE_OPTIONS = ['yes', 'no', 'abstain'] as const
export type VoteOption = (typeof VOTE_OPTIONS)[number]

export interface Tally {
  yes: Micro
  no: Micro
  abstain: Micro
  total_power: Micro
  voters: number
  /** The quorum and threshold in force when the proposal was created. */
  quorum_bps: number
  threshold_bps: number
}

export interface Proposal {
  id: number
  proposer: string
  proposer_name: string
  type: ProposalType
  title: string
  description: string
  description_html: string
  /** The type's fields as submitted, every value a string. */
  payload: Record<string, string>
  deposit: Micro
  status: ProposalStatus
  /** Why execution failed; '' otherwise. */
  failure: string
  created_height: number
  created_at: string
  /** Voting ends at the end of this block. */
  voting_end_height: number
  /** When a passed proposal with an effect executes; 0 for none. */
  execute_height: number
  tally: Tally
  ended_height: number | null
}

export interface Vote {
  proposal: number
  voter: string
  voter_name: string
  option: VoteOption
  power: Micro
  height: number
  time: string
}

/** GET /api/v1/governance/power/{address}: the voting power and how it is made. */
export interface VotingPower {
  address: string
  stake: Micro
  reputation: number
  multiplierBps: number
  power: Micro
  proposal: number | null
}

/** part of whole in basis points, rounded down (0 when whole is 0). */
export function shareBps(part: Micro, whole: Micro): number {
  const w = toBigInt(whole)
  return w === 0n ? 0 : Number((toBigInt(part) * 10_000n) / w)
}

/** Where a tally stands against its quorum and threshold, as the chain decides it. */
export interface TallyReading {
  cast: bigint
  /** Of the votes cast, each option's share in basis points. */
  shares: Record<VoteOption, number>
  /** The votes cast as a share of the snapshotted total power, in basis points. */
  turnoutBps: number
  /** Yes as a share of yes plus no, in basis points. */
  yesOfDecidedBps: number
  /** At least quorum_bps of the total power voted (abstain counts). */
  quorumReached: boolean
  /** Yes is more than threshold_bps of yes plus no. */
  thresholdReached: boolean
}

export function readTally(t: Tally): TallyReading {
  const yes = toBigInt(t.yes)
  const no = toBigInt(t.no)
  const abstain = toBigInt(t.abstain)
  const total = toBigInt(t.total_power)
  const cast = yes + no + abstain
  const decided = yes + no
  return {
    cast,
    shares: { yes: shareBps(yes, cast), no: shareBps(no, cast), abstain: shareBps(abstain, cast) },
    turnoutBps: shareBps(cast, total),
    yesOfDecidedBps: shareBps(yes, decided),
    quorumReached: total > 0n && cast * 10_000n >= total * BigInt(t.quorum_bps),
    thresholdReached: decided > 0n && yes * 10_000n > decided * BigInt(t.threshold_bps),
  }
}
