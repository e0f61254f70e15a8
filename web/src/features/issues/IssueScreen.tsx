import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
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
    <Card size="lg" className="error-fallback">
      <p className="muted">404</p>
      <h1>{title}</h1>
      <p>{t('notFound.description')}</p>
      <div className="button-row">
        <PreloadLink className="btn btn-primary btn-md" to="/explore">
          {t('notFound.explore')}
        </PreloadLink>
        <PreloadLink className="btn btn-outline btn-md" to="/search">
          {t('notFound.search')}
        </PreloadLink>
      </div>
    </Card>
  )
}
