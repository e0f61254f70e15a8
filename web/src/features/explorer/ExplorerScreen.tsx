import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { isAddress, shortHash } from '@/lib/chain/address'
import { AccountSummary } from '@/components/AccountSummary'
import { type Block, useAccount, useAccountTxs, useBlock, useBlocks, useLiveChain, useTx, useTxs } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { AddressLink, BlockLink, explorerHref } from '@/components/ChainLinks'
import { ChainTable, type Column, Paged, TxResultBadge, TxTable, TxType } from '@/components/Lists'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { ChainQuery, Facts } from './ChainFacts'
import { navigation, searchHref } from './search'
import { StatusCards } from './StatusCards'
import './explorer.css'

const LATEST = 10
const ADDRESS_TXS = 20

/**
 * /explorer: chain status, the latest blocks and transactions and a search.
 * With no client router, one block, transaction or address is shown by
 * query string: ?block=N, ?tx=HASH, ?address=0x...
 */
export default function ExplorerScreen() {
  const { t } = useTranslation(['explorer', 'wallet'])
  useDocumentTitle(t('title'))
  useLiveChain()
  const query = new URLSearchParams(window.location.search)
  const block = query.get('block')
  const tx = query.get('tx')
  const address = query.get('address')
  const detail = block !== null || tx !== null || address !== null
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      <SearchForm />
      {detail && (
        <p>
          <PreloadLink to="/explorer">{t('back')}</PreloadLink>
        </p>
      )}
      {block !== null ? (
        <BlockView raw={block} />
      ) : tx !== null ? (
        <TxView hash={tx} />
      ) : address !== null ? (
        <AddressView address={address} />
      ) : (
        <Overview />
      )}
    </div>
  )
}

function SearchForm() {
  const { t } = useTranslation('explorer')
  const id = useId()
  const [value, setValue] = useState('')
  const [invalid, setInvalid] = useState(false)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const href = searchHref(value)
    setInvalid(!href)
    if (href) navigation.go(href)
  }
  return (
    <form role="search" className="explorer-search" onSubmit={submit} noValidate>
      <Field label={t('search.label')} error={invalid ? t('search.invalid') : undefined} row="explorer-search-row" after={<Button type="submit">{t('search.submit')}</Button>}>
        <Input
          id={id}
          type="search"
          className="mono"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={t('search.placeholder')}
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
    </form>
  )
}

function Overview() {
  const { t } = useTranslation('explorer')
  const [blockPage, setBlockPage] = useState(1)
  const [txPage, setTxPage] = useState(1)
  const blocks = useBlocks(blockPage, LATEST)
  const txs = useTxs({}, txPage, LATEST)
  return (
    <>
      <StatusCards />
      <section aria-labelledby="explorer-blocks" className="stack">
        <h2 id="explorer-blocks">{t('blocks.heading')}</h2>
        <Paged query={blocks} page={blockPage} onPage={setBlockPage} limit={LATEST} label={t('blocks.heading')} empty={t('blocks.empty')}>
          {(items) => <BlockTable blocks={items} caption={t('blocks.heading')} />}
        </Paged>
      </section>
      <section aria-labelledby="explorer-txs" className="stack">
        <h2 id="explorer-txs">{t('txs.heading')}</h2>
        <Paged query={txs} page={txPage} onPage={setTxPage} limit={LATEST} label={t('txs.heading')} empty={t('txs.empty')}>
          {(items) => <TxTable txs={items} caption={t('txs.heading')} />}
        </Paged>
      </section>
    </>
  )
}

function BlockTable({ blocks, caption }: { blocks: Block[]; caption: string }) {
  const { t } = useTranslation('explorer')
  const fmt = useChainFormat()
  const columns: Column<Block>[] = [
    { heading: t('blocks.columns.height'), num: true, cell: (b) => <BlockLink height={b.height} /> },
    { heading: t('blocks.columns.hash'), mono: true, title: (b) => b.hash, cell: (b) => shortHash(b.hash) },
    { heading: t('blocks.columns.time'), cell: (b) => fmt.time(b.time) },
    { heading: t('blocks.columns.proposer'), mono: true, title: (b) => b.proposer, cell: (b) => shortHash(b.proposer) },
    { heading: t('blocks.columns.txs'), num: true, cell: (b) => fmt.count(b.txs) },
  ]
  return <ChainTable rows={blocks} rowKey={(b) => b.height} columns={columns} caption={caption} />
}

function BlockView({ raw }: { raw: string }) {
  const { t } = useTranslation('explorer')
  if (!/^\d+$/.test(raw) || !/[1-9]/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    return <p className="inline-error" role="alert">{t('block.invalid', { value: raw })}</p>
  }
  return <BlockDetails height={Number(raw)} />
}

function BlockDetails({ height }: { height: number }) {
  const { t } = useTranslation('explorer')
  const fmt = useChainFormat()
  const block = useBlock(height)
  useDocumentTitle(t('block.title', { height }))
  return (
    <section aria-labelledby="explorer-block" className="stack">
      <h2 id="explorer-block">{t('block.title', { height })}</h2>
      <ChainQuery query={block} notFound={t('block.notFound', { height })}>
        {(b) => (
          <>
            <Card>
              <Facts
                rows={[
                  [t('block.height'), <span className="num">{b.height}</span>],
                  [t('block.hash'), <span className="mono">{b.hash}</span>],
                  [t('block.time'), fmt.time(b.time)],
                  [t('block.proposer'), <span className="mono">{b.proposer}</span>],
                  [t('block.txs'), fmt.count(b.txs)],
                  [t('block.appHash'), <span className="mono">{b.appHash}</span>],
                ]}
              />
            </Card>
            <nav className="button-row" aria-label={t('block.nav')}>
              {height > 1 && (
                <PreloadLink className="btn btn-outline btn-sm" to={explorerHref.block(height - 1)}>
                  {t('block.previous')}
                </PreloadLink>
              )}
              <PreloadLink className="btn btn-outline btn-sm" to={explorerHref.block(height + 1)}>
                {t('block.next')}
              </PreloadLink>
            </nav>
            <h3>{t('block.txsHeading')}</h3>
            {b.transactions?.length ? <TxTable txs={b.transactions} caption={t('block.txsHeading')} /> : <EmptyState message={t('block.empty')} />}
          </>
        )}
      </ChainQuery>
    </section>
  )
}

function TxView({ hash }: { hash: string }) {
  const { t } = useTranslation('explorer')
  const fmt = useChainFormat()
  const tx = useTx(hash)
  useDocumentTitle(t('tx.title'))
  return (
    <section aria-labelledby="explorer-tx" className="stack">
      <h2 id="explorer-tx">{t('tx.title')}</h2>
      <ChainQuery query={tx} notFound={t('tx.notFound', { hash })}>
        {(x) => (
          <Card>
            <Facts
              rows={[
                [t('tx.hash'), <span className="mono">{x.hash}</span>],
                [
                  t('tx.status'),
                  <>
                    <TxResultBadge tx={x} /> {x.code !== 0 && t('tx.failedCode', { code: x.code })}
                  </>,
                ],
                x.code !== 0 && x.log ? [t('tx.log'), x.log] : null,
                [t('tx.block'), <BlockLink height={x.height} />],
                [t('tx.index'), fmt.count(x.index)],
                [t('tx.time'), fmt.time(x.time)],
                [t('tx.type'), <TxType tx={x} plain />],
                [t('tx.from'), x.from ? <AddressLink address={x.from} full /> : '—'],
                x.to ? [t('tx.to'), <AddressLink address={x.to} full />] : null,
                String(x.amount) !== '0' ? [t('tx.amount'), <span className="num">{fmt.amount(x.amount)}</span>] : null,
                x.target ? [t('tx.target'), <span className="mono">{x.target}</span>] : null,
                x.username ? [t('tx.username'), x.username] : null,
                [t('tx.nonce'), <span className="num">{String(x.nonce)}</span>],
              ]}
            />
          </Card>
        )}
      </ChainQuery>
    </section>
  )
}

function AddressView({ address }: { address: string }) {
  const { t } = useTranslation('explorer')
  if (!isAddress(address)) return <p className="inline-error" role="alert">{t('address.invalid', { value: address })}</p>
  return <AddressDetails address={address} />
}

function AddressDetails({ address }: { address: string }) {
  const { t } = useTranslation('explorer')
  const account = useAccount(address)
  const [page, setPage] = useState(1)
  const txs = useAccountTxs(address, page, ADDRESS_TXS)
  useDocumentTitle(t('address.title'))
  return (
    <section aria-labelledby="explorer-address" className="stack">
      <h2 id="explorer-address">{t('address.title')}</h2>
      <p className="mono">{address}</p>
      <ChainQuery query={account} notFound={t('address.notFound')}>
        {(a) => (
          <>
            {a.username && (
              <p>
                <span className="muted">{t('address.username')}</span> {a.username}
              </p>
            )}
            <AccountSummary account={a} label={t('address.balances')} />
          </>
        )}
      </ChainQuery>
      <h3>{t('address.txsHeading')}</h3>
      <Paged query={txs} page={page} onPage={setPage} limit={ADDRESS_TXS} label={t('address.txsHeading')} empty={t('address.empty')}>
        {(items) => <TxTable txs={items} caption={t('address.txsHeading')} />}
      </Paged>
    </section>
  )
}
