import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
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
    <Card size="lg" className="error-fallback">
      <p className="muted">404</p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.description', { id })}</p>
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
