import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { toBigInt } from '@/features/wallet/amount'
import { type Validator, useLiveChain, useValidators } from '@/features/wallet/chain'
import { useChainFormat } from '@/features/wallet/format'
import '@/features/wallet/wallet.css'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './explorer.css'

/** /validators: the CometBFT validator set with each validator's voting power and share of the total. */
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
  return (
    <>
      <p>{t('validators.summary', { n: fmt.count(validators.length), power: fmt.count(total) })}</p>
      <div className="table-scroll">
        <table className="data chain-table">
          <caption className="sr-only">{t('validators.heading')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('validators.address')}</th>
              <th scope="col" className="num">
                {t('validators.power')}
              </th>
              <th scope="col" className="num">
                {t('validators.share')}
              </th>
            </tr>
          </thead>
          <tbody>
            {validators.map((v) => (
              <tr key={v.address}>
                <td className="mono">{v.address}</td>
                <td className="num">{fmt.count(toBigInt(v.power))}</td>
                <td className="num">{share(toBigInt(v.power))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}
