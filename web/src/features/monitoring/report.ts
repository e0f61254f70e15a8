type SentryModule = Awaited<ReturnType<typeof import('./sentry').loadSentry>>

let sentry: Promise<SentryModule> | null = null

/** Sends later reports to Sentry once it has loaded. */
export function connectSentry(loading: Promise<SentryModule>): void {
  sentry = loading
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
