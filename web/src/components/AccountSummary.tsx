import { useTranslation } from 'react-i18next'
import { Card } from './Card'
import type { Account } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import './data.css'

/** Balance, staked and unbonding of an account, amounts right-aligned in tabular figures. */
export function AccountSummary({ account, label }: { account: Account; label: string }) {
  const { t } = useTranslation('wallet')
  const fmt = useChainFormat()
  const rows = [
    ['balance', account.balance],
    ['staked', account.staked],
    ['unbonding', account.unbonding],
  ] as const
  return (
    <Card as="section" aria-label={label} className="account-summary">
      <dl className="amount-list">
        {rows.map(([key, value]) => (
          <div key={key}>
            <dt>{t(`account.${key}`)}</dt>
            <dd className="num" data-testid={`account-${key}`}>
              {fmt.amount(value)}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  )
}
