import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type EcosystemSlug, isEcosystemSlug, LINK_TARGETS, PAGES } from './pages'
import './ecosystem.css'

/**
 * /bounties, /ambassadors and /marketplace: token pages that are not
 * built yet, so each says what it is for, when it arrives and shows its
 * empty state.
 */
export default function EcosystemScreen() {
  const slug = useRoute().pathname.split('/').filter(Boolean)[0] ?? ''
  return isEcosystemSlug(slug) ? <EcosystemPage slug={slug} /> : <UnknownPage />
}

function EcosystemPage({ slug }: { slug: EcosystemSlug }) {
  const { t } = useTranslation('ecosystem')
  const page = PAGES[slug]
  const key = (name: string) => `pages.${slug}.${name}`
  useDocumentTitle(t(key('title')))
  return (
    <>
      <PageHeader title={t(key('title'))} lead={t(key('lead'))} />
      <Card size="sm" className="ecosystem-status">
        <span className="badge">{t('status')}</span> {t(key('milestone'))}
      </Card>
      <section className="ecosystem-section" aria-labelledby="ecosystem-list">
        <h2 id="ecosystem-list">{t(key('listTitle'))}</h2>
        <EmptyState message={t(key('empty'))} />
      </section>
      <section className="ecosystem-section" aria-labelledby="ecosystem-related">
        <h2 id="ecosystem-related">{t('related')}</h2>
        <ul className="ecosystem-links">
          {page.links.map((link) => (
            <li key={link}>
              <PreloadLink to={LINK_TARGETS[link]}>{t(`links.${link}`)}</PreloadLink>
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}

function UnknownPage() {
  const { t } = useTranslation()
  const { pathname } = useRoute()
  useDocumentTitle(t('notFound.title'))
  return <PageHeader title={t('notFound.title')} lead={t('notFound.description', { path: pathname })} />
}
