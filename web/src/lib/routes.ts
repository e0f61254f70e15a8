import { createContext, useContext } from 'react'
import table from './routes.json'

/**
 * The route table shared with the Go server (web/src/lib/routes.json, embedded
 * by web/app.go). Each entry names a screen of app/screens.ts, which a test
 * there checks; matching lives here, apart from the screens, so that a screen
 * can read its route without importing every other screen.
 */
export const routeTable: readonly { path: string; screen: string }[] = table

export interface RouteMatch {
  pathname: string
  screen: string
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

export const RouteContext = createContext<RouteMatch>(matchRoute('/'))

/** The current page's route: its screen and path parameters. */
export function useRoute(): RouteMatch {
  return useContext(RouteContext)
}
