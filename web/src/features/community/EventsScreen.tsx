import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './community.css'

/** /events: no events are scheduled, and how to propose one. */
export default function EventsScreen() {
  const { t } = useTranslation('community')
  useDocumentTitle(t('events.title'))
  return (
    <>
      <PageHeader title={t('events.title')} lead={t('events.lead')} />
      <section aria-labelledby="events-upcoming">
        <h2 id="events-upcoming">{t('events.upcoming')}</h2>
        <EmptyState message={t('events.empty')} />
      </section>
      <Card as="section" className="community-section" aria-labelledby="events-propose">
        <h2 id="events-propose">{t('events.propose.title')}</h2>
        <p>{t('events.propose.description')}</p>
        <PreloadLink className="btn btn-primary btn-md" to="/help/contact">
          {t('events.propose.action')}
        </PreloadLink>
        <p className="muted community-note">{t('events.propose.later')}</p>
      </Card>
    </>
  )
}
