// Issue bounties (GET /api/v1/bounties, /api/v1/repos/{owner}/{repo}/issues/{n}/bounty).
// Keys start with "chain": funding, refunds and payouts happen in blocks, so
// a new block refreshes them.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Micro } from '@/lib/chain/amount'
import type { Schema } from '@/lib/apiSchema'
import { getChain, getChainPage } from '@/lib/chain/api'

export type BountyStatus = 'open' | 'paid' | 'refunded' | 'none'
export const BOUNTY_TABS = ['open', 'paid'] as const
export type BountyTab = (typeof BOUNTY_TABS)[number]

export type BountyUser = Schema<'index.User'>

// Hand-written: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export interface Funder extends BountyUser {
  amount: Micro
  /** The block height after which the funder may take the share back. */
  expiry: number
}

// Hand-written: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export interface Bounty {
  /** owner/name */
  repo: string
  repo_id: number
  number: number
  title: string
  issue_state: 'open' | 'closed'
  status: BountyStatus
  /** What is in escrow now. */
  total: Micro
  funder_count: number
  /** The latest expiry of the open shares. */
  expiry: number
  paid_to: BountyUser | null
  paid_amount: Micro
  paid_height: number
  paid_at?: string
  /** The repository's main language (most bytes on its default branch), '' when unknown. */
  language: string
  funders?: Funder[]
}

/** Languages the filter offers as suggestions; any other name may be typed. */
export const COMMON_LANGUAGES = ['Go', 'Rust', 'TypeScript', 'JavaScript', 'Python', 'C', 'C++', 'C#', 'Java', 'Kotlin', 'Swift', 'Ruby', 'PHP', 'Haskell', 'Elixir', 'Zig', 'Solidity', 'Shell'] as const

export interface BountyFilter {
  tab: BountyTab
  /** owner/name, or '' for every repository. */
  repo: string
  /** A repository's main language (any case), or '' for all. */
  language: string
}

export function bountiesPath(f: BountyFilter): string {
  const q = new URLSearchParams({ state: f.tab })
  if (f.repo) q.set('repo', f.repo)
  if (f.language) q.set('language', f.language)
  return `/api/v1/bounties?${q.toString()}`
}

export function useBounties(f: BountyFilter, page: number, limit: number) {
  return useQuery({
    queryKey: ['chain', 'bounties', f.tab, f.repo, f.language, page, limit],
    queryFn: () => getChainPage<Bounty>(bountiesPath(f), page, limit),
    // Paging keeps the rows on screen; a tab switch does not show the other tab's rows under its columns.
    placeholderData: (previous, query) => (query?.queryKey[2] === f.tab ? keepPreviousData(previous) : undefined),
  })
}

export function useIssueBounty(owner: string, repo: string, number: number) {
  return useQuery({
    queryKey: ['chain', 'bounty', owner, repo, number],
    queryFn: () => getChain<Bounty>(`/api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues/${number}/bounty`),
  })
}

/** The page of a bounty's issue. */
export function bountyIssueHref(b: Pick<Bounty, 'repo' | 'number'>): string {
  return `/${b.repo}/issues/${b.number}`
}

/** Whether address holds a share it may take back at height (past its expiry). */
export function refundableShare(b: Bounty | undefined, address: string | undefined, height: number | undefined): Funder | null {
  if (!b || !address || height === undefined) return null
  const share = b.funders?.find((f) => f.address.toLowerCase() === address.toLowerCase())
  return share && height > share.expiry ? share : null
}
