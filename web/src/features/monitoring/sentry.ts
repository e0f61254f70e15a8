import type { ErrorEvent } from '@sentry/react'

/** The spec's error-reporting constants. */
export const SENTRY_OPTIONS = {
  environment: 'production',
  release: '1.0.0',
  tracesSampleRate: 0.1,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const

const NOISE = [/chrome-extension:\/\//, /moz-extension:\/\//, /safari(-web)?-extension:\/\//, /NetworkError/]

/** Drops events caused by browser extensions or flaky networks, not by us. */
export function dropNoise<E extends ErrorEvent>(event: E): E | null {
  const texts = [
    event.message,
    ...(event.exception?.values ?? []).flatMap((v) => [
      v.value,
      ...(v.stacktrace?.frames ?? []).map((f) => f.filename),
    ]),
  ]
  return texts.some((s) => s && NOISE.some((re) => re.test(s))) ? null : event
}

/** Loads and starts @sentry/react; only called when a DSN is configured. */
export async function loadSentry(dsn: string) {
  const Sentry = await import('@sentry/react')
  Sentry.init({
    dsn,
    ...SENTRY_OPTIONS,
    integrations: [Sentry.browserTracingIntegration(), Sentry.replayIntegration()],
    beforeSend: dropNoise,
  })
  return Sentry
}
