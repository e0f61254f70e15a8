import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { NotFoundCard } from '@/components/NotFoundCard'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

/**
 * A user's public page. There is no user directory before accounts land in
 * the chain milestone, so every id is not found.
 */
export default function UserScreen() {
  const { t } = useTranslation('users')
  const id = useRoute().params.id ?? ''
  useDocumentTitle(t('user.notFound.title'))
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
