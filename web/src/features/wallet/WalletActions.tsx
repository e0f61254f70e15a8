import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { Tabs } from '@/components/Tabs'
import type { Account, ChainParams } from './chain'
import { ReceivePanel } from './ReceivePanel'
import { TxForm } from './TxForm'
import './wallet.css'

export const WALLET_ACTIONS = ['send', 'receive', 'tip', 'stake', 'unstake'] as const
export type WalletAction = (typeof WALLET_ACTIONS)[number]
const KIND = { send: 'Transfer', tip: 'Tip', stake: 'Stake', unstake: 'Unstake' } as const

/**
 * The wallet's actions as tabs, each with its own form; the staking page
 * shows the same forms with actions=['stake', 'unstake'].
 */
export function WalletActions({
  title,
  address,
  account,
  params,
  actions = WALLET_ACTIONS,
}: {
  title: string
  address: string
  account: Account | undefined
  params: ChainParams
  actions?: readonly WalletAction[]
}) {
  const { t } = useTranslation('wallet')
  const titleId = useId()
  const [action, setAction] = useState<WalletAction>(actions[0])
  return (
    <Card as="section" aria-labelledby={titleId} className="wallet-actions">
      <h2 id={titleId}>{title}</h2>
      <Tabs label={title} tabs={actions.map((a) => ({ id: a, label: t(`actions.${a}`) }))} selected={action} onSelect={setAction}>
        {action === 'receive' ? (
          <ReceivePanel address={address} symbol={params.token.symbol} />
        ) : (
          <TxForm key={action} kind={KIND[action]} from={address} account={account} params={params} />
        )}
      </Tabs>
    </Card>
  )
}
