import { createContext, useContext } from 'react'
import table from './routes.json'
import { type ScreenName, screens } from './screens'

/** The route table shared with the Go server (web/src/app/routes.json). */
export const routeTable = table as { path: string; screen: ScreenName }[]

export interface RouteMatch {
  pathname: string
  screen: ScreenName
  /** Values of ":name" segments; "*" holds the rest of the path. */
  params: Record<string, string>
}

// ":x" matches one non-empty segment and a trailing "*" the rest, exactly as
// the server's matcher in internal/web/spa.go does.
function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean)
  const segs = pathname.split('/').filter(Boolean).map(safeDecode)
  const params: Record<string, string> = {}
  for (const [i, w] of want.entries()) {
    if (w === '*') {
      params['*'] = segs.slice(i).join('/')
      return params
    }
    if (i >= segs.length) return null
    if (w.startsWith(':')) params[w.slice(1)] = segs[i]
    else if (w !== segs[i]) return null
  }
  return segs.length === want.length ? params : null
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Which screen a path shows; unknown paths show Not Found. */
export function matchRoute(pathname: string): RouteMatch {
  for (const r of routeTable) {
    const params = matchPattern(r.path, pathname)
    if (params) return { pathname, screen: r.screen, params }
  }
  return { pathname, screen: 'notFound', params: {} }
}

/** Starts downloading the chunk of the screen at href; used on hover and focus. */
export function preloadPath(href: string): void {
  const url = new URL(href, window.location.origin)
  if (url.origin !== window.location.origin) return
  screens[matchRoute(url.pathname).screen].preload().catch(() => {
    // A failed preload is retried on navigation, where the error boundary shows it.
  })
}

export const RouteContext = createContext<RouteMatch>(matchRoute('/'))

/** The current page's route: its screen and path parameters. */
export function useRoute(): RouteMatch {
  return useContext(RouteContext)
}
