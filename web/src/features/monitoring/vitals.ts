import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals'
import type { Schema, Sent } from '@/lib/apiSchema'
import { reportMessage } from './report'

export const VITALS_ENDPOINT = '/api/analytics/web-vitals'

declare global {
  interface Window {
    gtag?: (command: 'event', name: string, params: Record<string, unknown>) => void
  }
}

// What POST /api/analytics/web-vitals takes: the value and delta always set,
// and the name, rating and navigation type web-vitals' own unions where the
// document says any string.
export type VitalReport = Omit<Sent<Schema<'vitals.Report'>>, 'name' | 'rating' | 'navigationType'> & {
  name: Metric['name']
  rating: Metric['rating']
  navigationType: Metric['navigationType']
}

export function toReport(metric: Metric): VitalReport {
  return {
    name: metric.name,
    value: metric.value,
    rating: metric.rating,
    delta: metric.delta,
    id: metric.id,
    navigationType: metric.navigationType,
    timestamp: Date.now(),
    url: window.location.href,
    userAgent: navigator.userAgent,
  }
}

/** Sends one metric to our endpoint, to gtag when present, and to Sentry when not good. */
export function sendMetric(metric: Metric): void {
  const report = toReport(metric)
  // keepalive lets the report outlive the page when it is sent on unload.
  fetch(VITALS_ENDPOINT, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(report),
    keepalive: true,
  }).catch((err: unknown) => console.warn('web-vitals report failed', err))
  window.gtag?.('event', metric.name, {
    value: Math.round(metric.name === 'CLS' ? metric.value * 1000 : metric.value),
    event_category: 'Web Vitals',
    event_label: metric.id,
    non_interaction: true,
  })
  if (metric.rating !== 'good') reportMessage(`Web vital ${metric.name} rated ${metric.rating}`, { ...report })
}

export function reportWebVitals(): void {
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(sendMetric)
}
