import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Suspense } from 'react'
import { PreloadContext } from '@/components/PreloadLink'
import { matchRoute, RouteContext } from '@/lib/routes'
import { preloadPath } from './preload'
import { screenFor } from './screens'
import { FullScreenLoading, Shell } from './Shell'

const queryClient = new QueryClient({
  // offlineFirst: a read is tried even when the browser says it is offline,
  // so the service worker can answer it from its saved copies.
  defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false, networkMode: 'offlineFirst' } },
})

/**
 * Every navigation is a full page load (the spec's model), so the route is
 * matched once per load and no client-side router is shipped.
 */
export function App({ pathname = window.location.pathname }: { pathname?: string }) {
  const route = matchRoute(pathname)
  const Screen = screenFor(route.screen).Component
  return (
    <QueryClientProvider client={queryClient}>
      <RouteContext value={route}>
        <PreloadContext value={preloadPath}>
          <Suspense fallback={<FullScreenLoading />}>
            <Shell>
              <Screen />
            </Shell>
          </Suspense>
        </PreloadContext>
      </RouteContext>
    </QueryClientProvider>
  )
}
