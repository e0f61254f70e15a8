import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { NotFoundError, QueryState } from '@/components/QueryState'

/** QueryState, but a 404 says what is missing instead of the generic "not found". */
export function ChainQuery<T>({ query, notFound, children }: { query: UseQueryResult<T>; notFound: string; children: (data: T) => ReactNode }) {
  if (query.error instanceof NotFoundError) {
    return (
      <div className="inline-error" role="alert">
        <p>{notFound}</p>
      </div>
    )
  }
  return <QueryState query={query}>{children}</QueryState>
}

/** Label and value pairs of one block, transaction or account; null rows are left out. */
export function Facts({ rows }: { rows: ([string, ReactNode] | null)[] }) {
  return (
    <dl className="facts">
      {rows
        .filter((r): r is [string, ReactNode] => r !== null)
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  )
}
