import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { Tabs } from '@/components/Tabs'
import { SignInNotice } from '@/components/SignInNotice'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

const FILTERS = ['unread', 'all'] as const
type Filter = (typeof FILTERS)[number]

/**
 * The signed-in user's notifications. The node makes none yet and has no
 * endpoint to read them, so the list shows its empty state.
 */
export default function NotificationsScreen() {
  const { t } = useTranslation('notifications')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  const [filter, setFilter] = useState<Filter>('unread')
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={user ? t('lead') : undefined} />
      {user ? (
        <Tabs label={t('filterLabel')} tabs={FILTERS.map((id) => ({ id, label: t(`filters.${id}`) }))} selected={filter} onSelect={setFilter}>
          <EmptyState message={t(`empty.${filter}`)} />
        </Tabs>
      ) : (
        <SignInNotice message={t('signedOut')} />
      )}
    </div>
  )
}
