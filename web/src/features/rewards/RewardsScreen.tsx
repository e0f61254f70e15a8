import { type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { SignInNotice } from '@/components/SignInNotice'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import type { User } from '@/stores/auth'
import './rewards.css'

const WALLET_ACTIONS = ['send', 'receive', 'tip', 'stake', 'unstake'] as const
const EARNED_BY = ['mergedPullRequests', 'approvingReviews', 'resolvedIssues', 'commits'] as const

/**
 * The signed-in user's wallet and rewards. Balances and transactions live on
 * the chain, which has no read endpoint yet, so the sections show what they
 * will hold instead of numbers.
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
    <>
      <WalletActions />
      <div className="rewards-sections">
        <Section title={t('balance.title')}>
          <p>{t('balance.none')}</p>
          {user.walletAddress ? (
            <p className="muted rewards-address">
              {t('balance.wallet')} <code>{user.walletAddress}</code>
            </p>
          ) : (
            <p className="muted">{t('balance.noWallet')}</p>
          )}
        </Section>
        <Section title={t('earned.title')}>
          <EmptyState message={t('earned.empty')} />
        </Section>
        <Section title={t('transactions.title')}>
          <EmptyState message={t('transactions.empty')} />
        </Section>
      </div>
    </>
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

function WalletActions() {
  const { t } = useTranslation('rewards')
  const noteId = useId()
  return (
    <div className="rewards-actions">
      <div className="button-row" role="group" aria-label={t('actions.label')}>
        {WALLET_ACTIONS.map((action) => (
          <Button key={action} variant={action === 'send' ? 'primary' : 'outline'} disabled aria-describedby={noteId}>
            {t(`actions.${action}`)}
          </Button>
        ))}
      </div>
      <p id={noteId} className="muted">
        {t('actions.note')}
      </p>
    </div>
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
