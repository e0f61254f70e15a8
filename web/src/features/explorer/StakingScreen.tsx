import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { AccountSummary } from '@/components/AccountSummary'
import { toBigInt } from '@/lib/chain/amount'
import { useAccount, useChainParams, useChainStatus, useLiveChain } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { WalletActions } from '@/features/wallet'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import './explorer.css'

/** /staking: what is staked on the chain, and the signed-in user's stake with the stake and unstake forms. */
export default function StakingScreen() {
  const { t } = useTranslation(['explorer', 'wallet'])
  useDocumentTitle(t('staking.title'))
  useLiveChain()
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader title={t('staking.title')} lead={t('staking.lead')} />
      <NetworkStake />
      {!user ? (
        <SignInNotice message={t('staking.signIn')} />
      ) : !user.walletAddress ? (
        <Card role="status">
          <p>{t('wallet:noAddress')}</p>
        </Card>
      ) : (
        <YourStake address={user.walletAddress} />
      )}
    </div>
  )
}

function NetworkStake() {
  const { t, i18n } = useTranslation('explorer')
  const fmt = useChainFormat()
  const status = useChainStatus()
  return (
    <section aria-labelledby="network-stake" className="stack">
      <h2 id="network-stake">{t('staking.network')}</h2>
      <QueryState query={status}>
        {(s) => {
          const supply = toBigInt(s.supply)
          const ratio = supply === 0n ? 0 : Number((toBigInt(s.staked) * 10_000n) / supply) / 10_000
          const rows = [
            ['total', fmt.amount(s.staked)],
            ['ofSupply', new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'percent', minimumFractionDigits: 2 }).format(ratio)],
            ['unbonding', fmt.amount(s.unbonding)],
          ] as const
          return (
            <Card>
              <dl className="amount-list">
                {rows.map(([key, value]) => (
                  <div key={key}>
                    <dt>{t(`staking.${key}`)}</dt>
                    <dd className="num" data-testid={`staking-${key}`}>
                      {value}
                    </dd>
                  </div>
                ))}
              </dl>
            </Card>
          )
        }}
      </QueryState>
    </section>
  )
}

function YourStake({ address }: { address: string }) {
  const { t } = useTranslation('explorer')
  const account = useAccount(address)
  const params = useChainParams()
  return (
    <section aria-labelledby="your-stake" className="stack">
      <h2 id="your-stake">{t('staking.yours')}</h2>
      <QueryState query={account}>{(a) => <AccountSummary account={a} label={t('staking.yours')} />}</QueryState>
      <QueryState query={params}>
        {(p) => <WalletActions title={t('staking.actions')} address={address} account={account.data} params={p} actions={['stake', 'unstake']} />}
      </QueryState>
    </section>
  )
}
