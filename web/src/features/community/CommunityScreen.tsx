import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './community.css'

// Each way to take part: its strings under community.takePart.<id>, and where it leads.
const WAYS = [
  { id: 'forum', to: '/forum' },
  { id: 'blog', to: '/blog' },
  { id: 'events', to: '/events' },
  { id: 'code', to: '/docs/getting-started', more: { key: 'architecture', to: '/docs/architecture' } },
  { id: 'governance', to: '/governance' },
] as const

/** /community: how to take part. Stats and featured projects need chain data, so they say so. */
export default function CommunityScreen() {
  const { t } = useTranslation('community')
  useDocumentTitle(t('community.title'))
  return (
    <>
      <PageHeader title={t('community.title')} lead={t('community.lead')} />
      <section aria-labelledby="community-take-part">
        <h2 id="community-take-part">{t('community.takePart.title')}</h2>
        <ul className="grid community-cards">
          {WAYS.map((way) => (
            <Card as="li" key={way.id}>
              <h3>{t(`community.takePart.${way.id}.title`)}</h3>
              <p className="muted">{t(`community.takePart.${way.id}.description`)}</p>
              <div className="button-row">
                <PreloadLink to={way.to}>{t(`community.takePart.${way.id}.link`)}</PreloadLink>
                {'more' in way && (
                  <PreloadLink to={way.more.to}>{t(`community.takePart.${way.id}.${way.more.key}`)}</PreloadLink>
                )}
              </div>
            </Card>
          ))}
        </ul>
      </section>
      <section className="community-section" aria-labelledby="community-stats">
        <h2 id="community-stats">{t('community.stats.title')}</h2>
        <p>{t('community.stats.description')}</p>
        <PreloadLink to="/roadmap">{t('community.stats.link')}</PreloadLink>
      </section>
      <section className="community-section" aria-labelledby="community-featured">
        <h2 id="community-featured">{t('community.featured.title')}</h2>
        <EmptyState
          message={t('community.featured.empty')}
          action={<PreloadLink to="/explore">{t('community.featured.action')}</PreloadLink>}
        />
      </section>
    </>
  )
}
