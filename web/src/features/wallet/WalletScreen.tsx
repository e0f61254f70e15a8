import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { AccountSummary } from '@/components/AccountSummary'
import { useAccount, useAccountTxs, useChainParams, useLiveChain } from '@/lib/chain/api'
import { AddressLink } from '@/components/ChainLinks'
import { Paged, TxTable } from '@/components/Lists'
import { WalletActions } from './WalletActions'

const TX_PAGE_SIZE = 20

/** /wallet: the signed-in user's balances, transactions and the actions that move tokens. */
export default function WalletScreen() {
  const { t } = useTranslation('wallet')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      {!user ? (
        <SignInNotice message={t('signIn')} />
      ) : !user.walletAddress ? (
        <Card role="status">
          <p>{t('noAddress')}</p>
        </Card>
      ) : (
        <Wallet address={user.walletAddress} />
      )}
    </div>
  )
}

function Wallet({ address }: { address: string }) {
  const { t } = useTranslation('wallet')
  useLiveChain()
  const params = useChainParams()
  const account = useAccount(address)
  return (
    <>
      <p className="wallet-address">
        <span className="muted">{t('account.address')}</span> <AddressLink address={address} full />
        {account.data?.username && (
          <>
            {' · '}
            <span className="muted">{t('account.username')}</span> {account.data.username}
          </>
        )}
      </p>
      <QueryState query={account}>{(a) => <AccountSummary account={a} label={t('account.heading')} />}</QueryState>
      <QueryState query={params}>{(p) => <WalletActions title={t('actions.label')} address={address} account={account.data} params={p} />}</QueryState>
      <WalletTxs address={address} />
    </>
  )
}

function WalletTxs({ address }: { address: string }) {
  const { t } = useTranslation('wallet')
  const [page, setPage] = useState(1)
  const txs = useAccountTxs(address, page, TX_PAGE_SIZE)
  return (
    <section aria-labelledby="wallet-txs-title" className="stack">
      <h2 id="wallet-txs-title">{t('txs.heading')}</h2>
      <Paged query={txs} page={page} onPage={setPage} limit={TX_PAGE_SIZE} label={t('txs.heading')} empty={t('txs.empty')}>
        {(items) => <TxTable txs={items} caption={t('txs.heading')} />}
      </Paged>
    </section>
  )
}
