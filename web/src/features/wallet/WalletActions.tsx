import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { Tabs } from '@/components/Tabs'
import type { Account, ChainParams } from '@/lib/chain/api'
import { ReceivePanel } from './ReceivePanel'
import { TxForm } from './TxForm'
import '@/components/data.css'
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
  // A tip link from another page (/wallet?tip=user:alice&to=0x...) opens the tip form filled in.
  const [prefill] = useState(tipPrefill)
  const [action, setAction] = useState<WalletAction>(prefill && actions.includes('tip') ? 'tip' : actions[0])
  return (
    <Card as="section" aria-labelledby={titleId} className="wallet-actions">
      <h2 id={titleId}>{title}</h2>
      <Tabs label={title} tabs={actions.map((a) => ({ id: a, label: t(`actions.${a}`) }))} selected={action} onSelect={setAction}>
        {action === 'receive' ? (
          <ReceivePanel address={address} symbol={params.token.symbol} />
        ) : (
          <TxForm
            key={action}
            kind={KIND[action]}
            from={address}
            account={account}
            params={params}
            initial={action === 'tip' ? prefill : undefined}
          />
        )}
      </Tabs>
    </Card>
  )
}

/** The tip form's fields from the address (?tip=TARGET&to=ADDRESS), if it names a target. */
function tipPrefill(): { target: string; to: string } | undefined {
  const q = new URLSearchParams(window.location.search)
  const target = q.get('tip')
  return target ? { target, to: q.get('to') ?? '' } : undefined
}
