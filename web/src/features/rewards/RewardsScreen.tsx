import { type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { type Account, useAccount, useLiveChain } from '@/features/wallet/chain'
import { useChainFormat } from '@/features/wallet/format'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import type { User } from '@/stores/auth'
// The amount list and tabular figures the wallet pages share.
import '@/features/wallet/wallet.css'
import './rewards.css'

const EARNED_BY = ['mergedPullRequests', 'approvingReviews', 'resolvedIssues', 'commits'] as const
const AMOUNTS = ['balance', 'staked', 'unbonding'] as const

/**
 * The signed-in user's tokens and rewards. The balance is the chain's, read
 * from the account of the user's wallet and followed block by block; moving
 * tokens happens on the wallet page. Rewards are minted from the governance
 * milestone on, so until then their section says so instead of showing numbers.
 */
export default function RewardsScreen() {
  const { t } = useTranslation('rewards')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          <PreloadLink className="btn btn-outline btn-md" to="/leaderboard">
            {t('leaderboardLink')}
          </PreloadLink>
        }
      />
      {user ? <Wallet user={user} /> : <SignInNotice message={t('signedOut')} />}
      <HowRewardsWork />
    </div>
  )
}

function Wallet({ user }: { user: User }) {
  const { t } = useTranslation('rewards')
  return (
    <div className="rewards-sections">
      <Section title={t('balance.title')}>
        {user.walletAddress ? <Balance address={user.walletAddress} /> : <p className="muted">{t('balance.noWallet')}</p>}
      </Section>
      <Section title={t('earned.title')}>
        <EmptyState message={t('earned.empty')} />
        <p className="muted">{t('earned.availability')}</p>
      </Section>
      <Section title={t('transactions.title')}>
        <p>{t('transactions.text')}</p>
        <PreloadLink to="/wallet">{t('transactions.link')}</PreloadLink>
      </Section>
    </div>
  )
}

function Balance({ address }: { address: string }) {
  const { t } = useTranslation('rewards')
  // Polls the height and refetches the account when a new block lands.
  useLiveChain()
  const account = useAccount(address)
  const noteId = useId()
  return (
    <>
      <QueryState query={account}>{(a) => <Amounts account={a} />}</QueryState>
      <p className="muted rewards-address">
        {t('balance.wallet')} <code>{address}</code>
      </p>
      <div className="rewards-actions">
        <PreloadLink className="btn btn-primary btn-md" to="/wallet" aria-describedby={noteId}>
          {t('balance.openWallet')}
        </PreloadLink>
        <p id={noteId} className="muted">
          {t('balance.actionsNote')}
        </p>
      </div>
    </>
  )
}

function Amounts({ account }: { account: Account }) {
  const { t } = useTranslation('rewards')
  const fmt = useChainFormat()
  return (
    <dl className="amount-list rewards-amounts">
      {AMOUNTS.map((key) => (
        <div key={key}>
          <dt>{t(`balance.${key}`)}</dt>
          <dd className="num" data-testid={`rewards-${key}`}>
            {fmt.amount(account[key])}
          </dd>
        </div>
      ))}
    </dl>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId()
  return (
    <Card as="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </Card>
  )
}

function HowRewardsWork() {
  const { t } = useTranslation('rewards')
  const headingId = useId()
  return (
    <Card as="section" className="rewards-explainer" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('howItWorks.title')}</h2>
      <p>{t('howItWorks.intro')}</p>
      <ul>
        {EARNED_BY.map((item) => (
          <li key={item}>{t(`howItWorks.earnedBy.${item}`)}</li>
        ))}
      </ul>
      <p>{t('howItWorks.noReward')}</p>
      <p>{t('howItWorks.caps')}</p>
      <p className="muted">{t('howItWorks.availability')}</p>
    </Card>
  )
}
