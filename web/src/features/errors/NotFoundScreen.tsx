import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'

export default function NotFoundScreen() {
  const { t } = useTranslation()
  const { pathname } = useRoute()
  return (
    <Card size="lg" className="error-fallback">
      <p className="muted">404</p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.description', { path: pathname })}</p>
      <div className="button-row">
        <PreloadLink className="btn btn-primary btn-md" to="/">
          {t('notFound.home')}
        </PreloadLink>
        <PreloadLink className="btn btn-outline btn-md" to="/search">
          {t('notFound.search')}
        </PreloadLink>
      </div>
    </Card>
  )
}
