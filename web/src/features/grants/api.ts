// The grants API (GET /api/v1/grants, /api/v1/grants/:id) as TanStack Query
// hooks. Keys start with "chain", so a new block refreshes approvals and
// statuses along with the rest of the chain's queries.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Micro } from '@/lib/chain/amount'
import type { Schema } from '@/lib/apiSchema'
import { getChain, getChainPage } from '@/lib/chain/api'
import { retryUnlessNotFound } from '@/lib/http'

/** A grant's lifecycle: proposed -> active | rejected, active -> completed | expired. */
export const GRANT_STATUSES = ['proposed', 'active', 'completed', 'expired', 'rejected'] as const
export type GrantStatus = (typeof GRANT_STATUSES)[number]
export type GrantFilter = 'all' | GrantStatus
export const GRANT_FILTERS: readonly GrantFilter[] = ['all', ...GRANT_STATUSES]

export type Person = Schema<'index.User'>

export type GrantApproval = Schema<'index.GrantApproval'>

// Hand-written: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export interface GrantMilestone {
  /** Its place in the grant, from 0, as GrantApprove names it. */
  index: number
  description: string
  amount: Micro
  recipient: Person
  released: boolean
  released_height: number
  approvals: GrantApproval[]
}

// Hand-written: read through parseExactJSON, an amount may be a decimal string (Micro) where the document says integer.
export interface Grant {
  /** The id of the proposal that made it. */
  id: number
  title: string
  proposer: Person
  status: GrantStatus
  failure: string
  total: Micro
  released: Micro
  refunded: Micro
  /** The block at whose start what is unreleased returns to the treasury. */
  expiry: number
  reviewers: Person[]
  /** A majority of the reviewers. */
  approvals_needed: number
  created_height: number
  created_at: string
  milestones: GrantMilestone[]
}

const GRANTS = '/api/v1/grants'

export function useGrants(filter: GrantFilter, page: number, limit: number) {
  const path = filter === 'all' ? GRANTS : `${GRANTS}?status=${filter}`
  return useQuery({
    queryKey: ['chain', 'grants', filter, page, limit],
    queryFn: () => getChainPage<Grant>(path, page, limit),
    placeholderData: keepPreviousData,
  })
}

export function useGrant(id: number) {
  return useQuery({
    queryKey: ['chain', 'grant', id],
    queryFn: () => getChain<Grant>(`${GRANTS}/${id}`),
    enabled: id > 0,
    retry: retryUnlessNotFound,
  })
}

export const grantHref = (id: number) => `/grants/${id}`
