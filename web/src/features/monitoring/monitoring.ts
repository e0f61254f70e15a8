import { connectSentry } from './report'

// The reporters live in report.ts, which vitals.ts also imports, so that this
// module (which loads vitals.ts) and vitals.ts do not import each other.
export { reportError, reportMessage } from './report'

/** Starts error reporting (when configured) and web-vitals after first paint. */
export function startMonitoring(): void {
  const dsn = import.meta.env.VITE_SENTRY_DSN as string | undefined
  if (dsn) connectSentry(import('./sentry').then((m) => m.loadSentry(dsn)))
  // Vitals observers are buffered, so loading them after the page settles
  // misses nothing and keeps them out of the first-load bundle.
  const start = () => void import('./vitals').then((m) => m.reportWebVitals())
  if (document.readyState === 'complete') start()
  else window.addEventListener('load', start, { once: true })
}
