import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { userQuery } from './api'
import { UserProfile } from './UserScreen'
import './users.css'

/** The signed-in user's own profile, as others see it, with a link to edit it. */
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
  return <OwnProfile login={user.username} />
}

function OwnProfile({ login }: { login: string }) {
  const query = useQuery(userQuery(login))
  return (
    <QueryState query={query}>
      {(u) => (
        <UserProfile user={u} own>
          <Contributions />
        </UserProfile>
      )}
    </QueryState>
  )
}

function Contributions() {
  const { t } = useTranslation('users')
  const contributionsId = useId()
  return (
    <Card as="section" className="profile-section" aria-labelledby={contributionsId}>
      <h2 id={contributionsId}>{t('profile.contributions')}</h2>
      {/* No invented zeros: scores exist only once rewarded contributions do. */}
      <EmptyState message={t('profile.noContributions')} />
      <p className="muted">{t('profile.contributionsNote')}</p>
    </Card>
  )
}
