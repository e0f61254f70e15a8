import type { ReactNode } from 'react'
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

/** Renders a query's loading and error states, and children once data is in. */
export function QueryState<T>({ query, children }: { query: QueryLike<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation()
  if (query.isPending) {
    return (
      <div className="inline-loading" role="status">
        <Spinner size="sm" /> <span>{t('state.loading')}</span>
      </div>
    )
  }
  if (query.isError || query.data === undefined) {
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
  return <>{children(query.data)}</>
}

export class NotFoundError extends Error {}
