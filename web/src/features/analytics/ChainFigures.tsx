import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { type ChainStatus, useLiveChain } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
// The amount list and tabular figures the chain pages share.
import '@/components/data.css'

type Format = ReturnType<typeof useChainFormat>

/** Each figure's label (chain.<key>) and how it reads in the current language. */
const FIGURES: readonly (readonly [string, (s: ChainStatus, fmt: Format) => string])[] = [
  ['height', (s, fmt) => fmt.count(s.height)],
  ['supply', (s, fmt) => fmt.amount(s.supply)],
  ['staked', (s, fmt) => fmt.amount(s.staked)],
  ['unbonding', (s, fmt) => fmt.amount(s.unbonding)],
  ['treasury', (s, fmt) => fmt.amount(s.treasury.balance)],
  ['accounts', (s, fmt) => fmt.count(s.accounts)],
  ['validators', (s, fmt) => fmt.count(s.validators)],
]

/**
 * The chain-wide figures of the status endpoint, polled (useLiveChain) so
 * they follow new blocks. The explorer's status cards show fewer of them,
 * in the explorer's words, so this section keeps its own.
 */
export function ChainFigures() {
  const { t } = useTranslation('analytics')
  const fmt = useChainFormat()
  const status = useLiveChain()
  return (
    <Card as="section" aria-labelledby="chain-title" className="chain-figures">
      <h2 id="chain-title">{t('chain.title')}</h2>
      {status.isPending ? (
        // The same list with placeholders while the first answer is on its way, so nothing below moves when it comes.
        <Figures fmt={fmt} />
      ) : (
        <QueryState query={status}>{(s) => <Figures status={s} fmt={fmt} />}</QueryState>
      )}
      <p className="button-row">
        <PreloadLink to="/explorer">{t('chain.explorer')}</PreloadLink>
        <PreloadLink to="/treasury">{t('chain.treasuryLink')}</PreloadLink>
        <PreloadLink to="/validators">{t('chain.validatorsLink')}</PreloadLink>
      </p>
    </Card>
  )
}

/** The figures of status, or same-sized placeholders while it loads. */
function Figures({ status, fmt }: { status?: ChainStatus; fmt: Format }) {
  const { t } = useTranslation('analytics')
  return (
    <div aria-busy={!status}>
      <dl className="amount-list">
        {FIGURES.map(([key, read]) => (
          <div key={key}>
            <dt>{t(`chain.${key}`)}</dt>
            <dd className="num" data-testid={status ? `chain-${key}` : undefined}>
              {status ? read(status, fmt) : <span className="figure-placeholder" aria-hidden="true" />}
            </dd>
          </div>
        ))}
      </dl>
      <p className="muted">{status?.time ? t('chain.time', { time: fmt.time(status.time) }) : '\u00a0'}</p>
    </div>
  )
}
