import { type ReactNode, useDeferredValue } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from './Button'
import { Spinner } from './Spinner'

interface QueryLike<T> {
  data: T | undefined
  isPending: boolean
  isError: boolean
  error: Error | null
  refetch: () => unknown
}

/**
 * Renders a query's loading and error states, and children once data is in.
 *
 * With defer, new data renders as a deferred value. A query's answer comes
 * in through useSyncExternalStore, which React renders in one blocking
 * task, and a large page's data (a repository's frame, file list and
 * README; a pull request and its diff) took 100-250 ms of it. Deferred, it
 * renders in slices that let input through, and until then the previous
 * data (or the loading state) stays. Children that mount in that render
 * render their own cached data in it too.
 */
export function QueryState<T>({ query, defer = false, children }: { query: QueryLike<T>; defer?: boolean; children: (data: T) => ReactNode }) {
  // Only a deferring call site holds a deferred value: useDeferredValue
  // renders its component a second time whenever the value changes.
  if (defer) return <DeferredQueryState query={query}>{children}</DeferredQueryState>
  return (
    <QueryView query={query} data={query.data}>
      {children}
    </QueryView>
  )
}

function DeferredQueryState<T>({ query, children }: { query: QueryLike<T>; children: (data: T) => ReactNode }) {
  const data = useDeferredValue(query.data)
  return (
    <QueryView query={query} data={data}>
      {children}
    </QueryView>
  )
}

/** The loading, error or data state of query, showing data (query.data or a deferred copy of it). */
function QueryView<T>({ query, data, children }: { query: QueryLike<T>; data: T | undefined; children: (data: T) => ReactNode }) {
  const { t } = useTranslation()
  if (query.isPending || (data === undefined && query.data !== undefined)) {
    return (
      <div className="inline-loading" role="status">
        <Spinner size="sm" /> <span>{t('state.loading')}</span>
      </div>
    )
  }
  if (query.isError || data === undefined) {
    return (
      <div className="inline-error" role="alert">
        <p>{query.error instanceof NotFoundError ? t('state.notFound') : t('state.loadFailed')}</p>
        {!(query.error instanceof NotFoundError) && (
          <Button size="sm" variant="outline" onClick={() => query.refetch()}>
            {t('state.retry')}
          </Button>
        )}
      </div>
    )
  }
  return <>{children(data)}</>
}

export class NotFoundError extends Error {}
