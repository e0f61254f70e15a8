type SentryModule = Awaited<ReturnType<typeof import('./sentry').loadSentry>>

let sentry: Promise<SentryModule> | null = null

/** Starts error reporting (when configured) and web-vitals after first paint. */
export function startMonitoring(): void {
  const dsn = import.meta.env.VITE_SENTRY_DSN as string | undefined
  if (dsn) sentry = import('./sentry').then((m) => m.loadSentry(dsn))
  // Vitals observers are buffered, so loading them after the page settles
  // misses nothing and keeps them out of the first-load bundle.
  const start = () => void import('./vitals').then((m) => m.reportWebVitals())
  if (document.readyState === 'complete') start()
  else window.addEventListener('load', start, { once: true })
}

/** Reports an error to Sentry when it is configured, else logs it. */
export function reportError(error: unknown): void {
  if (!sentry) {
    console.error(error)
    return
  }
  void sentry.then((s) => s.captureException(error))
}

/** Reports a notable message (a poor web vital, say) to Sentry if configured. */
export function reportMessage(message: string, extra: Record<string, unknown>): void {
  void sentry?.then((s) => s.captureMessage(message, { level: 'warning', extra }))
}
