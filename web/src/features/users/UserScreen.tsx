import { useTranslation } from 'react-i18next'
import { useRoute } from '@/app/routes'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
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
    <Card size="lg" className="error-fallback">
      <p className="muted">404</p>
      <h1>{t('user.notFound.title')}</h1>
      <p>{t('user.notFound.description', { id })}</p>
      <div className="button-row">
        <PreloadLink className="btn btn-primary btn-md" to="/explore">
          {t('user.notFound.explore')}
        </PreloadLink>
        <PreloadLink className="btn btn-outline btn-md" to="/search">
          {t('user.notFound.search')}
        </PreloadLink>
      </div>
    </Card>
  )
}
