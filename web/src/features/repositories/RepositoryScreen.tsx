import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
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
    <Card size="lg" className="error-fallback">
      <p className="muted">404</p>
      <h1>{t('repository.notFound.title')}</h1>
      <p>{t('repository.notFound.description', { id })}</p>
      <p className="muted">{t('repository.notFound.planned')}</p>
      <div className="button-row">
        <PreloadLink className="btn btn-primary btn-md" to="/explore">
          {t('repository.notFound.back')}
        </PreloadLink>
      </div>
    </Card>
  )
}
