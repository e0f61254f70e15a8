import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import type { Page, Tx } from './chain'
import { useChainFormat } from './format'
import { AddressLink, BlockLink, TxLink } from './links'
import './wallet.css'

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

/** The transaction type in the reader's language, with what it names (a tip's target, a claimed username) unless plain. */
export function TxType({ tx, plain = false }: { tx: Tx; plain?: boolean }) {
  const { t } = useTranslation('wallet')
  const detail = plain ? '' : tx.target || (tx.type === 'ClaimUsername' ? tx.username : '')
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

export function TxTable({ txs, caption }: { txs: Tx[]; caption: string }) {
  const { t } = useTranslation('wallet')
  const fmt = useChainFormat()
  return (
    <div className="table-scroll">
      <table className="data chain-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('txs.columns.hash')}</th>
            <th scope="col" className="num">
              {t('txs.columns.block')}
            </th>
            <th scope="col">{t('txs.columns.type')}</th>
            <th scope="col">{t('txs.columns.from')}</th>
            <th scope="col">{t('txs.columns.to')}</th>
            <th scope="col" className="num">
              {t('txs.columns.amount')}
            </th>
            <th scope="col">{t('txs.columns.result')}</th>
            <th scope="col">{t('txs.columns.time')}</th>
          </tr>
        </thead>
        <tbody>
          {txs.map((tx) => (
            <tr key={tx.hash}>
              <td>
                <TxLink hash={tx.hash} />
              </td>
              <td className="num">
                <BlockLink height={tx.height} />
              </td>
              <td>
                <TxType tx={tx} />
              </td>
              <td>{tx.from ? <AddressLink address={tx.from} /> : '—'}</td>
              <td>{tx.to ? <AddressLink address={tx.to} /> : '—'}</td>
              <td className="num">{isZero(tx.amount) ? '—' : fmt.amount(tx.amount)}</td>
              <td>
                <TxResultBadge tx={tx} />
              </td>
              <td>{fmt.time(tx.time)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

const isZero = (v: Tx['amount']) => String(v) === '0'
