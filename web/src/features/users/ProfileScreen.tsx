import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import type { User } from '@/stores/auth'
import { SignInNotice } from '@/components/SignInNotice'
import { useSignedInUser } from '@/stores/useSignedInUser'
import './users.css'

/** The signed-in user's own profile, from the auth store. */
export default function ProfileScreen() {
  const { t } = useTranslation('users')
  useDocumentTitle(t('profile.title'))
  const user = useSignedInUser()
  if (!user) {
    return (
      <div className="stack">
        <PageHeader title={t('profile.title')} />
        <SignInNotice message={t('profile.signedOut')} />
      </div>
    )
  }
  return <Profile user={user} />
}

function Profile({ user }: { user: User }) {
  const { t } = useTranslation('users')
  const accountId = useId()
  const contributionsId = useId()
  return (
    <div className="stack">
      <PageHeader
        title={user.displayName || user.username}
        lead={`@${user.username}`}
        actions={
          <PreloadLink className="btn btn-outline btn-md" to="/settings">
            {t('profile.editInSettings')}
          </PreloadLink>
        }
      />
      <Card as="section" className="profile-section" aria-labelledby={accountId}>
        <h2 id={accountId}>{t('profile.account')}</h2>
        <dl className="profile-details">
          <dt>{t('profile.username')}</dt>
          <dd>{user.username}</dd>
          {user.walletAddress && (
            <>
              <dt>{t('profile.walletAddress')}</dt>
              <dd>
                <code>{user.walletAddress}</code>
              </dd>
            </>
          )}
        </dl>
      </Card>
      <Card as="section" className="profile-section" aria-labelledby={contributionsId}>
        <h2 id={contributionsId}>{t('profile.contributions')}</h2>
        {/* No invented zeros: scores exist only once rewarded contributions do. */}
        <EmptyState message={t('profile.noContributions')} />
        <p className="muted">{t('profile.contributionsNote')}</p>
      </Card>
    </div>
  )
}
