import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { NotFoundCard } from '@/components/NotFoundCard'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { HiddenNotice, ReportButton } from '@/features/moderation'
import { retryUnlessNotFound } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { formatAmount, type PublicUser, tipsQuery, tokenQuery, userQuery } from './api'
import { ContributionScores } from './ContributionScores'
import { FollowButton, UserFollows } from './Follows'
import { UserRepositories } from './UserRepositories'
import './users.css'

/** A user's public page: profile fields, wallet, contribution scores and the tips they received. */
export default function UserScreen() {
  const { t } = useTranslation('users')
  const id = useRoute().params.id ?? ''
  const user = useQuery({ ...userQuery(id), retry: retryUnlessNotFound })
  useDocumentTitle(user.data ? user.data.full_name || user.data.login : t('user.title'))
  if (user.error instanceof NotFoundError) {
    return (
      <NotFoundCard
        title={t('user.notFound.title')}
        description={t('user.notFound.description', { id })}
        links={[
          { to: '/explore', label: t('user.notFound.explore') },
          { to: '/search', label: t('user.notFound.search') },
        ]}
      />
    )
  }
  return <QueryState query={user}>{(u) => <UserProfile user={u} />}</QueryState>
}

/** The profile of user; on one's own profile (own), the action edits it instead of tipping. */
export function UserProfile({ user, own = false, children }: { user: PublicUser; own?: boolean; children?: ReactNode }) {
  const { t } = useTranslation('users')
  const detailsId = useId()
  return (
    <div className="stack">
      <PageHeader
        title={user.full_name || user.login}
        lead={`@${user.login}`}
        actions={
          own ? (
            <PreloadLink className="btn btn-outline btn-md" to="/settings">
              {t('profile.editInSettings')}
            </PreloadLink>
          ) : (
            <>
              <FollowButton login={user.login} />
              <ReportButton kind="user" target={user.login} label={`@${user.login}`} />
              <a className="btn btn-outline btn-md" href={`/wallet?tip=${encodeURIComponent(`user:${user.login}`)}&to=${user.wallet_address}`}>
                {t('user.sendTip')}
              </a>
            </>
          )
        }
      />
      <Card as="section" className="profile-section" aria-labelledby={detailsId}>
        <h2 id={detailsId}>{t('user.about')}</h2>
        {user.hidden && <HiddenNotice reason={user.hidden_reason} />}
        {user.description && !user.hidden && <p className="profile-bio">{user.description}</p>}
        <dl className="profile-details">
          {user.location && (
            <>
              <dt>{t('user.location')}</dt>
              <dd>{user.location}</dd>
            </>
          )}
          {user.website && (
            <>
              <dt>{t('user.website')}</dt>
              <dd>
                <a href={user.website} rel="nofollow ugc noopener" target="_blank">
                  {user.website}
                </a>
              </dd>
            </>
          )}
          <dt>{t('profile.walletAddress')}</dt>
          <dd>
            <a href={`/explorer?address=${user.wallet_address}`}>
              <code>{user.wallet_address}</code>
            </a>
          </dd>
          {user.created && (
            <>
              <dt>{t('user.joined')}</dt>
              <dd>
                <time dateTime={user.created}>{new Date(user.created).toLocaleDateString()}</time>
              </dd>
            </>
          )}
        </dl>
      </Card>
      <UserRepositories login={user.login} />
      <UserFollows login={user.login} followers={user.followers_count ?? 0} following={user.following_count ?? 0} />
      <ContributionScores address={user.wallet_address} />
      {children}
      <TipsReceived login={user.login} />
    </div>
  )
}

function TipsReceived({ login }: { login: string }) {
  const { t } = useTranslation('users')
  const headingId = useId()
  const tips = useQuery(tipsQuery(`user:${login}`))
  const params = useQuery(tokenQuery)
  return (
    <Card as="section" className="profile-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('user.tips')}</h2>
      <QueryState query={tips}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t('user.noTips')} />
          ) : (
            <ul className="tip-list">
              {list.map((tip) => (
                <li key={tip.hash}>
                  <a href={`/explorer?address=${tip.from}`}>
                    <code>{tip.from}</code>
                  </a>{' '}
                  <span className="tip-amount">
                    {params.data ? `${formatAmount(tip.amount, params.data.token.decimals)} ${params.data.token.symbol}` : tip.amount}
                  </span>{' '}
                  <a className="muted" href={`/explorer?tx=${tip.hash}`}>
                    {t('user.tipBlock', { height: tip.height })}
                  </a>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </Card>
  )
}
