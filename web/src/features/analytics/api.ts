import { useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'

export type MetricName = 'CLS' | 'LCP' | 'INP' | 'FCP' | 'TTFB'
export type Rating = 'good' | 'needs-improvement' | 'poor'

export interface VitalSummary {
  metric: MetricName
  page: string
  p75: number
  count: number
  rating: Rating
}

export function useWebVitals() {
  return useQuery({
    queryKey: ['analytics', 'web-vitals'],
    queryFn: () => getJSON<{ windowDays: number; metrics: VitalSummary[] }>('/api/v1/analytics/web-vitals'),
  })
}

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
