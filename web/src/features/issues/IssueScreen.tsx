import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { NotFoundCard } from '@/components/NotFoundCard'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

/**
 * An issue's page. Issues arrive with the forge milestone (with the endpoint
 * to read them), so until then no issue exists and every id is not found.
 */
export default function IssueScreen() {
  const { t } = useTranslation('issues')
  const id = useRoute().params.id ?? ''
  const title = t('notFound.title', { id })
  useDocumentTitle(title)
  return (
    <NotFoundCard
      title={title}
      description={t('notFound.description')}
      links={[
        { to: '/explore', label: t('notFound.explore') },
        { to: '/search', label: t('notFound.search') },
      ]}
    />
  )
}
