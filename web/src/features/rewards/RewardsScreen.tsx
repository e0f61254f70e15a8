import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { useGovFormat } from '@/features/governance'
import { type Account, useAccount, useLiveChain } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { BlockLink } from '@/components/ChainLinks'
import { ChainTable, type Column, Paged } from '@/components/Lists'
import { contributionHref, isWithheld, type Reward, useReputation, useRewards } from './api'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import type { User } from '@/stores/auth'
// The amount list and tabular figures the wallet pages share.
import '@/components/data.css'
import './rewards.css'

const EARNED_BY = ['mergedPullRequests', 'approvingReviews', 'resolvedIssues', 'commits'] as const
const AMOUNTS = ['balance', 'staked', 'unbonding'] as const

/**
 * The signed-in user's tokens and rewards. The balance is the chain's, read
 * from the account of the user's wallet and followed block by block; moving
 * tokens happens on the wallet page. Below it, the rewards the chain minted
 * for the user's contributions, withheld ones with the reason, and the
 * reputation that multiplies them.
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
  const address = user.walletAddress
  return (
    <>
      <div className="rewards-sections">
        <Section title={t('balance.title')}>{address ? <Balance address={address} /> : <p className="muted">{t('balance.noWallet')}</p>}</Section>
        {address && (
          <Section title={t('reputation.title')}>
            <ReputationFigures address={address} />
          </Section>
        )}
        <Section title={t('transactions.title')}>
          <p>{t('transactions.text')}</p>
          <PreloadLink to="/wallet">{t('transactions.link')}</PreloadLink>
        </Section>
      </div>
      {address && (
        <Section title={t('earned.title')}>
          <EarnedRewards address={address} />
        </Section>
      )}
    </>
  )
}

/** The reputation, the multiplier it gives, and what the user earned and had withheld in all. */
function ReputationFigures({ address }: { address: string }) {
  const { t } = useTranslation('rewards')
  const fmt = useChainFormat()
  const gf = useGovFormat()
  const reputation = useReputation(address)
  return (
    <QueryState query={reputation}>
      {(r) => (
        <>
          <dl className="amount-list rewards-amounts">
            <div>
              <dt>{t('reputation.multiplier')}</dt>
              <dd className="num" data-testid="rewards-multiplier">
                {gf.multiplier(r?.multiplier_bps ?? 10_000)}
              </dd>
            </div>
            <div>
              <dt>{t('reputation.points')}</dt>
              <dd className="num" data-testid="rewards-reputation">
                {fmt.count(r?.reputation ?? 0)}
              </dd>
            </div>
            <div>
              <dt>{t('reputation.earned')}</dt>
              <dd className="num" data-testid="rewards-earned">
                {fmt.amount(r?.earned ?? 0)}
              </dd>
            </div>
            <div>
              <dt>{t('reputation.withheld')}</dt>
              <dd className="num" data-testid="rewards-withheld">
                {fmt.amount(r?.withheld ?? 0)}
              </dd>
            </div>
          </dl>
          <p className="muted">{t('reputation.note')}</p>
        </>
      )}
    </QueryState>
  )
}

const LIMIT = 20

/** Each reward, newest first, with the contribution it came from; a withheld one says why. */
function EarnedRewards({ address }: { address: string }) {
  const { t } = useTranslation('rewards')
  const fmt = useChainFormat()
  const gf = useGovFormat()
  const [page, setPage] = useState(1)
  const rewards = useRewards(address, page, LIMIT)
  const columns: Column<Reward>[] = [
    { heading: t('earned.columns.contribution'), cell: (r) => <Contribution reward={r} /> },
    { heading: t('earned.columns.block'), num: true, cell: (r) => <BlockLink height={r.height} /> },
    { heading: t('earned.columns.base'), num: true, cell: (r) => fmt.amount(r.base) },
    { heading: t('earned.columns.multiplier'), num: true, cell: (r) => gf.multiplier(r.multiplier_bps) },
    { heading: t('earned.columns.minted'), num: true, cell: (r) => fmt.amount(r.minted) },
    { heading: t('earned.columns.withheld'), cell: (r) => <WithheldMarker reward={r} /> },
  ]
  return (
    <>
      <Paged query={rewards} page={page} onPage={setPage} limit={LIMIT} label={t('earned.title')} empty={t('earned.empty')}>
        {(items) => <ChainTable rows={items} rowKey={(r) => `${r.height}-${r.kind}-${r.repo}-${r.number}-${r.sha}`} columns={columns} caption={t('earned.title')} />}
      </Paged>
      <p className="muted">{t('earned.note')}</p>
    </>
  )
}

/** "Pull request ada/engine#12", linking to it; a commit by its short sha. */
function Contribution({ reward: r }: { reward: Reward }) {
  const { t } = useTranslation('rewards')
  const href = contributionHref(r)
  const name = r.kind === 'commit' ? `${r.repo}@${r.sha.slice(0, 7)}` : `${r.repo}#${r.number}`
  return (
    <>
      <span className="reward-kind">{t(`kinds.${r.kind}`)}</span> {href ? <PreloadLink to={href}>{name}</PreloadLink> : <span>{name}</span>}
    </>
  )
}

function WithheldMarker({ reward: r }: { reward: Reward }) {
  const { t } = useTranslation('rewards')
  const fmt = useChainFormat()
  if (String(r.withheld) === '0' && !r.reason) return <span className="muted">—</span>
  const reason = r.reason ? t(`reasons.${r.reason}`) : ''
  return (
    <span className="reward-withheld">
      <span className="badge badge-failed">{isWithheld(r) ? t('earned.withheld') : t('earned.partlyWithheld')}</span>{' '}
      {String(r.withheld) !== '0' && <span className="num">{fmt.amount(r.withheld)}</span>} {reason && <span className="muted">{reason}</span>}
    </span>
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
      <p className="muted">{t('howItWorks.multiplier')}</p>
    </Card>
  )
}
