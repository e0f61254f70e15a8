import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { useSignedInUser } from '@/stores/useSignedInUser'

/** A link to the signed-in user's feed, for pages that show the node's activity (Home); nothing when signed out. */
export function FeedLink() {
  const { t } = useTranslation('feed')
  const user = useSignedInUser()
  if (!user) return null
  return (
    <PreloadLink to="/feed" className="feed-link">
      {t('yourFeed')}
    </PreloadLink>
  )
}
