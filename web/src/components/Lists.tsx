import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import type { Page, Tx } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { AddressLink, BlockLink, TxLink } from './ChainLinks'
import './data.css'

/**
 * A paginated list: loading and error states, the empty state on an empty
 * first page, and Previous/Next. Without X-Total-Count a full page is taken
 * to mean there may be more.
 */
export function Paged<T>({
  query,
  page,
  onPage,
  limit,
  label,
  empty,
  children,
}: {
  query: UseQueryResult<Page<T>>
  page: number
  onPage: (page: number) => void
  limit: number
  /** What the list is, for the pager's accessible name. */
  label: string
  empty: string
  children: (items: T[]) => ReactNode
}) {
  return (
    <QueryState query={query}>
      {(data) =>
        data.items.length === 0 && page === 1 ? (
          <EmptyState message={empty} />
        ) : (
          <div aria-busy={query.isPlaceholderData || undefined} className={query.isPlaceholderData ? 'paged-stale' : undefined}>
            {children(data.items)}
            <Pager page={page} onPage={onPage} total={data.total} limit={limit} count={data.items.length} label={label} />
          </div>
        )
      }
    </QueryState>
  )
}

function Pager({ page, onPage, total, limit, count, label }: { page: number; onPage: (p: number) => void; total: number | null; limit: number; count: number; label: string }) {
  const { t } = useTranslation('wallet')
  const pages = total === null ? null : Math.max(1, Math.ceil(total / limit))
  const hasNext = pages === null ? count === limit : page < pages
  if (page === 1 && !hasNext) return null
  return (
    <nav className="pager" aria-label={t('pager.label', { what: label })}>
      <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pager.previous')}
      </Button>
      <span aria-live="polite">{pages === null ? t('pager.pageOnly', { page }) : t('pager.page', { page, pages })}</span>
      <Button size="sm" variant="outline" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {t('pager.next')}
      </Button>
    </nav>
  )
}

/** The transaction type in the reader's language, with what it names (a tip's target, a claimed username, a forge action) unless plain. */
export function TxType({ tx, plain = false }: { tx: Tx; plain?: boolean }) {
  const { t } = useTranslation('wallet')
  const detail = plain ? '' : tx.target || tx.action || (tx.type === 'ClaimUsername' ? tx.username : '')
  return (
    <>
      {t(`txTypes.${tx.type}`, { defaultValue: tx.type })}
      {detail && <span className="muted tx-detail"> {detail}</span>}
    </>
  )
}

export function TxResultBadge({ tx }: { tx: Tx }) {
  const { t } = useTranslation('wallet')
  return tx.code === 0 ? <span className="badge badge-ok">{t('txs.ok')}</span> : <span className="badge badge-failed" title={tx.log}>{t('txs.failed')}</span>
}

/** A column of a ChainTable: its heading and what each row shows in it. */
export interface Column<T> {
  heading: string
  cell: (row: T) => ReactNode
  /** Figures: the heading and the cells align right. */
  num?: boolean
  /** Cells in the fixed-width font (addresses, hashes). */
  mono?: boolean
  /** A cell's tooltip, e.g. the whole of a shortened hash. */
  title?: (row: T) => string
}

/** The chain pages' table: one row per item, scrolling sideways on a narrow screen. */
export function ChainTable<T>({ rows, rowKey, columns, caption }: { rows: T[]; rowKey: (row: T) => string | number; columns: Column<T>[]; caption: string }) {
  return (
    <div className="table-scroll">
      <table className="data chain-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.heading} scope="col" className={c.num ? 'num' : undefined}>
                {c.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.heading} className={c.num ? 'num' : c.mono ? 'mono' : undefined} title={c.title?.(row)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function TxTable({ txs, caption }: { txs: Tx[]; caption: string }) {
  const { t } = useTranslation('wallet')
  const fmt = useChainFormat()
  const columns: Column<Tx>[] = [
    { heading: t('txs.columns.hash'), cell: (tx) => <TxLink hash={tx.hash} /> },
    { heading: t('txs.columns.block'), num: true, cell: (tx) => <BlockLink height={tx.height} /> },
    { heading: t('txs.columns.type'), cell: (tx) => <TxType tx={tx} /> },
    { heading: t('txs.columns.from'), cell: (tx) => (tx.from ? <AddressLink address={tx.from} /> : '—') },
    { heading: t('txs.columns.to'), cell: (tx) => (tx.to ? <AddressLink address={tx.to} /> : '—') },
    { heading: t('txs.columns.amount'), num: true, cell: (tx) => (isZero(tx.amount) ? '—' : fmt.amount(tx.amount)) },
    { heading: t('txs.columns.result'), cell: (tx) => <TxResultBadge tx={tx} /> },
    { heading: t('txs.columns.time'), cell: (tx) => fmt.time(tx.time) },
  ]
  return <ChainTable rows={txs} rowKey={(tx) => tx.hash} columns={columns} caption={caption} />
}

const isZero = (v: Tx['amount']) => String(v) === '0'
