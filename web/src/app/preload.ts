import { matchRoute } from '@/lib/routes'
import { screenFor } from './screens'

/** Starts downloading the chunk of the screen at href; used on hover and focus. */
export function preloadPath(href: string): void {
  const url = new URL(href, window.location.origin)
  if (url.origin !== window.location.origin) return
  screenFor(matchRoute(url.pathname).screen).preload().catch(() => {
    // A failed preload is retried on navigation, where the error boundary shows it.
  })
}
