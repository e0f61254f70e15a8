// Contribution rewards, reputation and the leaderboard (GET /api/v1/rewards,
// /api/v1/accounts/{address}/reputation, /api/v1/leaderboard). Keys start
// with "chain": rewards are minted in blocks, so a new block refreshes them.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { NotFoundError } from '@/components/QueryState'
import type { Schema } from '@/lib/apiSchema'
import { repoHref } from '@/lib/forge/api'
import type { Micro } from '@/lib/chain/amount'
import { getChain, getChainPage } from '@/lib/chain/api'

export const REWARD_KINDS = ['pr', 'review', 'issue_reporter', 'issue_closer', 'commit'] as const
export type RewardKind = (typeof REWARD_KINDS)[number]

/** Why a reward was (partly) withheld; '' when it was paid in full. */
export type WithheldReason = '' | 'self_merge' | 'own_review' | 'own_issue' | 'repo_not_eligible' | 'cap_account' | 'cap_repo' | 'cap_epoch' | 'already_rewarded'

// Hand-written: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export interface Reward {
  height: number
  time: string
  account: string
  account_name: string
  kind: RewardKind
  /** owner/name */
  repo: string
  /** The pull request or issue; 0 for a commit. */
  number: number
  /** The commit, for a commit reward. */
  sha: string
  base: Micro
  multiplier_bps: number
  /** What the account got. */
  minted: Micro
  /** The treasury's share. */
  treasury: Micro
  /** What a cap or rule kept back. */
  withheld: Micro
  reason: WithheldReason
}

export type Scores = Schema<'index.Scores'>

// Hand-written: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export interface Reputation {
  address: string
  reputation: number
  multiplier_bps: number
  scores: Scores
  earned: Micro
  withheld: Micro
}

export const PERIODS = ['week', 'month', 'all'] as const
export type Period = (typeof PERIODS)[number]

// Hand-written: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export interface Rank {
  rank: number
  address: string
  name: string
  earned: Micro
  contributions: number
  reputation: number
}

export function useRewards(account: string, page: number, limit: number) {
  return useQuery({
    queryKey: ['chain', 'rewards', account.toLowerCase(), page, limit],
    queryFn: () => getChainPage<Reward>(`/api/v1/rewards?account=${encodeURIComponent(account)}`, page, limit),
    placeholderData: keepPreviousData,
  })
}

/** An account's reputation and scores; null for an account the chain has never rewarded (404). */
export function useReputation(address: string | undefined) {
  return useQuery({
    queryKey: ['chain', 'reputation', (address ?? '').toLowerCase()],
    queryFn: () =>
      getChain<Reputation>(`/api/v1/accounts/${encodeURIComponent(address!)}/reputation`).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null
        throw err
      }),
    enabled: !!address,
  })
}

export function useLeaderboard(period: Period, limit = 50) {
  return useQuery({
    queryKey: ['chain', 'leaderboard', period, limit],
    queryFn: () => getChain<Rank[]>(`/api/v1/leaderboard?period=${period}&limit=${limit}`),
    placeholderData: keepPreviousData,
  })
}

/** A reward that paid the account nothing: a rule or a cap kept all of it back. */
export const isWithheld = (r: Reward) => String(r.minted) === '0' && r.reason !== ''

/** The page of the contribution a reward came from: the pull request, the issue or the commit. */
export function contributionHref(r: Reward): string | null {
  const [owner, repo] = r.repo.split('/')
  if (!owner || !repo) return null
  if (r.kind === 'commit') return r.sha ? repoHref.commit(owner, repo, r.sha) : null
  if (!r.number) return null
  return `${repoHref.section(owner, repo, r.kind === 'pr' || r.kind === 'review' ? 'pulls' : 'issues')}/${r.number}`
}
