import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { NotFoundCard } from '@/components/NotFoundCard'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

/**
 * A repository's page. No repository can exist before the forge milestone
 * (which also brings the endpoint to read one), so every id is not found.
 */
export default function RepositoryScreen() {
  const { t } = useTranslation('repositories')
  const id = useRoute().params.id ?? ''
  useDocumentTitle(t('repository.notFound.title'))
  return (
    <NotFoundCard
      title={t('repository.notFound.title')}
      description={t('repository.notFound.description', { id })}
      note={t('repository.notFound.planned')}
      links={[{ to: '/explore', label: t('repository.notFound.back') }]}
    />
  )
}
