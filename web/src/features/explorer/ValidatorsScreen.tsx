import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { toBigInt } from '@/lib/chain/amount'
import { type Validator, useLiveChain, useValidators } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { ChainTable, type Column } from '@/components/Lists'
import '@/components/data.css'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './explorer.css'
import { NodesSection } from './NodesSection'

/** /validators: the CometBFT validator set with each validator's voting power and share of the total, and the node registry. */
export default function ValidatorsScreen() {
  const { t } = useTranslation('explorer')
  useDocumentTitle(t('validators.title'))
  useLiveChain()
  const validators = useValidators()
  return (
    <div className="stack">
      <PageHeader title={t('validators.title')} lead={t('validators.lead')} />
      <section aria-labelledby="validator-set" className="stack">
        <h2 id="validator-set">{t('validators.heading')}</h2>
        <QueryState query={validators}>
          {(list) => (list.length === 0 ? <EmptyState message={t('validators.empty')} /> : <ValidatorTable validators={list} />)}
        </QueryState>
      </section>
      <NodesSection />
    </div>
  )
}

function ValidatorTable({ validators }: { validators: Validator[] }) {
  const { t, i18n } = useTranslation('explorer')
  const fmt = useChainFormat()
  const total = validators.reduce((sum, v) => sum + toBigInt(v.power), 0n)
  // Shares in hundredths of a percent, computed exactly; only the display is a float.
  const share = (power: bigint) =>
    new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      total === 0n ? 0 : Number((power * 10_000n) / total) / 10_000,
    )
  const columns: Column<Validator>[] = [
    { heading: t('validators.address'), mono: true, cell: (v) => v.address },
    { heading: t('validators.power'), num: true, cell: (v) => fmt.count(toBigInt(v.power)) },
    { heading: t('validators.share'), num: true, cell: (v) => share(toBigInt(v.power)) },
  ]
  return (
    <>
      <p>{t('validators.summary', { n: fmt.count(validators.length), power: fmt.count(total) })}</p>
      <ChainTable rows={validators} rowKey={(v) => v.address} columns={columns} caption={t('validators.heading')} />
    </>
  )
}
