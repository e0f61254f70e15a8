import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { NotFoundCard } from '@/components/NotFoundCard'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

/**
 * A pull request's page. Pull requests arrive with the forge milestone (with
 * the endpoint to read them), so until then every id is not found.
 */
export default function PullRequestScreen() {
  const { t } = useTranslation('pulls')
  const id = useRoute().params.id ?? ''
  useDocumentTitle(t('notFound.title'))
  return (
    <NotFoundCard
      title={t('notFound.title')}
      description={t('notFound.description', { id })}
      links={[
        { to: '/explore', label: t('notFound.explore') },
        { to: '/search', label: t('notFound.search') },
      ]}
    />
  )
}
