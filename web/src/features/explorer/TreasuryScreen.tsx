import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { useAccount, useChainParams, useChainStatus, useLiveChain, useTxs } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { AddressLink } from '@/components/ChainLinks'
import { Paged, TxTable } from '@/components/Lists'
import { TxForm } from '@/features/wallet'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import './explorer.css'

const DEPOSITS = 20

/** /treasury: the treasury account, its deposits, and a deposit form for signed-in users. */
export default function TreasuryScreen() {
  const { t } = useTranslation(['explorer', 'wallet'])
  useDocumentTitle(t('treasury.title'))
  useLiveChain()
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader title={t('treasury.title')} lead={t('treasury.lead')} />
      <TreasuryAccount />
      {!user ? (
        <SignInNotice message={t('treasury.signIn')} />
      ) : !user.walletAddress ? (
        <Card role="status">
          <p>{t('wallet:noAddress')}</p>
        </Card>
      ) : (
        <DepositForm address={user.walletAddress} />
      )}
      <Deposits />
    </div>
  )
}

function TreasuryAccount() {
  const { t } = useTranslation('explorer')
  const fmt = useChainFormat()
  const status = useChainStatus()
  return (
    <QueryState query={status}>
      {(s) => (
        <Card as="section" aria-label={t('treasury.account')}>
          <dl className="amount-list">
            <div className="text-cell">
              <dt>{t('treasury.address')}</dt>
              <dd className="treasury-address">
                <AddressLink address={s.treasury.address} full />
              </dd>
            </div>
            <div>
              <dt>{t('treasury.balance')}</dt>
              <dd className="num" data-testid="treasury-balance">
                {fmt.amount(s.treasury.balance)}
              </dd>
            </div>
          </dl>
        </Card>
      )}
    </QueryState>
  )
}

function DepositForm({ address }: { address: string }) {
  const account = useAccount(address)
  const params = useChainParams()
  return (
    <Card as="section">
      <QueryState query={params}>{(p) => <TxForm kind="TreasuryDeposit" from={address} account={account.data} params={p} />}</QueryState>
    </Card>
  )
}

function Deposits() {
  const { t } = useTranslation('explorer')
  const [page, setPage] = useState(1)
  const deposits = useTxs({ type: 'TreasuryDeposit' }, page, DEPOSITS)
  return (
    <section aria-labelledby="treasury-deposits" className="stack">
      <h2 id="treasury-deposits">{t('treasury.deposits')}</h2>
      <Paged query={deposits} page={page} onPage={setPage} limit={DEPOSITS} label={t('treasury.deposits')} empty={t('treasury.empty')}>
        {(items) => <TxTable txs={items} caption={t('treasury.deposits')} />}
      </Paged>
    </section>
  )
}
