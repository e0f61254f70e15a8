import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { NotFoundCard } from '@/components/NotFoundCard'

export default function NotFoundScreen() {
  const { t } = useTranslation()
  const { pathname } = useRoute()
  return (
    <NotFoundCard
      title={t('notFound.title')}
      description={t('notFound.description', { path: pathname })}
      links={[
        { to: '/', label: t('notFound.home') },
        { to: '/search', label: t('notFound.search') },
      ]}
    />
  )
}
