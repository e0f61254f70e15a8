import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { userQuery } from './api'
import { EmailClaims } from './EmailClaims'
import { UserProfile } from './UserScreen'
import './users.css'

/** The signed-in user's own profile, as others see it (contribution scores included), with a link to edit it. */
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
  return <QueryState query={query}>{(u) => (
        <UserProfile user={u} own>
          <EmailClaims />
        </UserProfile>
      )}</QueryState>
}
