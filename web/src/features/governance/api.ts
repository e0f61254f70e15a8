// The governance API (/api/v1/governance/*) as TanStack Query hooks. Keys
// start with "chain", so a new block (useLiveChain) refreshes the tally,
// the votes and the statuses along with the rest of the chain's queries.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Micro } from '@/lib/chain/amount'
import type { Schema } from '@/lib/apiSchema'
import { type ChainParams, getChain, getChainPage, paramsQuery } from '@/lib/chain/api'
import { retryUnlessNotFound } from '@/lib/http'
import type { Proposal, ProposalFilter, Vote, VotingPower } from './proposals'

/** params.gov of GET /api/v1/chain/params (amounts in micro-units, ratios in bps). */
// Hand-written amounts: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export type GovParams = Omit<Schema<'params.Gov'>, 'proposalDeposit' | 'minProposerStake'> & { proposalDeposit: Micro; minProposerStake: Micro }

/** The chain params with the governance group, which nodes before governance do not publish. */
export type GovChainParams = ChainParams & { gov?: GovParams }

export function useGovParams() {
  return useQuery({ ...paramsQuery, select: (p: ChainParams) => p as GovChainParams })
}

/** One changeable parameter from GET /api/v1/chain/param-docs. */
export type ParamDoc = Schema<'ParamDoc'>

export function useParamDocs() {
  return useQuery({ queryKey: ['gov', 'paramDocs'], queryFn: () => getChain<ParamDoc[]>('/api/v1/chain/param-docs'), staleTime: 60_000 })
}

const PROPOSALS = '/api/v1/governance/proposals'

export function useProposals(filter: ProposalFilter, page: number, limit: number) {
  const path = filter === 'all' ? PROPOSALS : `${PROPOSALS}?status=${filter}`
  return useQuery({
    queryKey: ['chain', 'gov', 'proposals', filter, page, limit],
    queryFn: () => getChainPage<Proposal>(path, page, limit),
    placeholderData: keepPreviousData,
  })
}

export function useProposal(id: number) {
  return useQuery({
    queryKey: ['chain', 'gov', 'proposal', id],
    queryFn: () => getChain<Proposal>(`${PROPOSALS}/${id}`),
    enabled: id >= 0,
    retry: retryUnlessNotFound,
  })
}

export function useVotes(id: number, page: number, limit: number) {
  return useQuery({
    queryKey: ['chain', 'gov', 'votes', id, page, limit],
    queryFn: () => getChainPage<Vote>(`${PROPOSALS}/${id}/votes`, page, limit),
    placeholderData: keepPreviousData,
  })
}

/** address's voting power on proposal: its stake as snapshotted when the proposal was created, times its multiplier. */
export function usePower(address: string, proposal: number) {
  return useQuery({
    queryKey: ['chain', 'gov', 'power', address.toLowerCase(), proposal],
    queryFn: () => getChain<VotingPower>(`/api/v1/governance/power/${encodeURIComponent(address)}?proposal=${proposal}`),
  })
}

/** address's current vote on proposal, or null. */
export function useOwnVote(address: string, proposal: number) {
  return useQuery({
    queryKey: ['chain', 'gov', 'ownVote', address.toLowerCase(), proposal],
    queryFn: async () => {
      const { items } = await getChainPage<Vote>(`${PROPOSALS}/${proposal}/votes?voter=${address}`, 1, 1)
      return items[0] ?? null
    },
  })
}

/** Where a proposal's page is. */
export const proposalHref = (id: number) => `/governance/${id}`
