import { useQuery } from '@tanstack/react-query'
import { NotFoundError } from '@/components/QueryState'
import type { ProposalStatus } from '@/features/governance'
import type { Micro } from '@/lib/chain/amount'
import { getChain } from '@/lib/chain/api'
import type { Schema } from '@/lib/apiSchema'
import { getJSON, retryUnlessNotFound } from '@/lib/http'

export type MetricName = 'CLS' | 'LCP' | 'INP' | 'FCP' | 'TTFB'
export type Rating = 'good' | 'needs-improvement' | 'poor'

// The document types metric and rating as any string; the server sends only these.
export type VitalSummary = Omit<Schema<'vitals.Summary'>, 'metric' | 'rating'> & { metric: MetricName; rating: Rating }

export function useWebVitals() {
  return useQuery({
    queryKey: ['analytics', 'web-vitals'],
    queryFn: () => getJSON<{ windowDays: number; metrics: VitalSummary[] }>('/api/v1/analytics/web-vitals'),
  })
}

// Hand-written: /healthz is not in the OpenAPI document.
export interface Health {
  status: 'ok' | 'degraded'
  database: string
  version: string
}

/** /healthz answers 503 with the same body when degraded, so read it either way. */
async function fetchHealth(): Promise<Health> {
  const res = await fetch('/healthz', { cache: 'no-store' })
  return (await res.json()) as Health
}

export function useHealth() {
  return useQuery({ queryKey: ['healthz'], queryFn: fetchHealth, refetchInterval: 30_000, retry: false })
}

/** Chain-wide governance and reward figures (amounts in micro-units). Hand-written: read with parseExactJSON, an amount may be a decimal string where the document says integer. */
export interface GovernanceFigures {
  supply: Micro
  staked: Micro
  treasury: Micro
  rewards_per_epoch: { epoch: number; minted: Micro }[]
  proposals: Record<ProposalStatus, number>
}

/**
 * The contract lets a node publish these on GET /api/v1/analytics/governance
 * or add them to GET /api/v1/analytics/chain; this reads the first and falls
 * back to the second.
 */
async function getGovernanceFigures(): Promise<GovernanceFigures> {
  try {
    return await getChain<GovernanceFigures>('/api/v1/analytics/governance')
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err
    return getChain<GovernanceFigures>('/api/v1/analytics/chain')
  }
}

export function useGovernanceFigures() {
  // Proposals close and rewards are minted once per epoch: a minute's staleness is plenty fresh.
  return useQuery({ queryKey: ['analytics', 'governance'], queryFn: getGovernanceFigures, retry: retryUnlessNotFound, staleTime: 60_000 })
}
