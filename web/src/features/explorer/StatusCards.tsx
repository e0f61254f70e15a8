import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { QueryState } from '@/components/QueryState'
import { useChainStatus } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'

/** The chain at a glance: height, supply, staked, accounts and validators; it follows the polled status. */
export function StatusCards() {
  const { t } = useTranslation('explorer')
  const fmt = useChainFormat()
  const status = useChainStatus()
  return (
    <section aria-labelledby="chain-status" className="stack">
      <h2 id="chain-status">{t('status.heading')}</h2>
      <QueryState query={status}>
        {(s) => (
          <Card>
            <dl className="amount-list">
              {(
                [
                  ['height', fmt.count(s.height)],
                  ['supply', fmt.amount(s.supply)],
                  ['staked', fmt.amount(s.staked)],
                  ['accounts', fmt.count(s.accounts)],
                  ['validators', fmt.count(s.validators)],
                ] as const
              ).map(([key, value]) => (
                <div key={key}>
                  <dt>{t(`status.${key}`)}</dt>
                  <dd className="num" data-testid={`status-${key}`}>
                    {value}
                  </dd>
                </div>
              ))}
            </dl>
            {s.time && <p className="muted status-time">{t('status.time', { time: fmt.time(s.time) })}</p>}
          </Card>
        )}
      </QueryState>
    </section>
  )
}
