import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Suspense } from 'react'
import { matchRoute, RouteContext } from './routes'
import { screens } from './screens'
import { FullScreenLoading, Shell } from './Shell'

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
})

/**
 * Every navigation is a full page load (the spec's model), so the route is
 * matched once per load and no client-side router is shipped.
 */
export function App({ pathname = window.location.pathname }: { pathname?: string }) {
  const route = matchRoute(pathname)
  const Screen = screens[route.screen].Component
  return (
    <QueryClientProvider client={queryClient}>
      <RouteContext value={route}>
        <Suspense fallback={<FullScreenLoading />}>
          <Shell>
            <Screen />
          </Shell>
        </Suspense>
      </RouteContext>
    </QueryClientProvider>
  )
}
