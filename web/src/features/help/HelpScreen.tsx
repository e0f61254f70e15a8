import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { useDocs } from '@/features/docs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { MyTickets } from './MyTickets'
import './help.css'

const CATEGORIES = [
  { key: 'gettingStarted', to: '/docs/getting-started' },
  { key: 'account', to: '/docs/wallet-sign-in' },
  { key: 'repositories', to: '/docs/architecture' },
  { key: 'governance', to: '/whitepaper' },
] as const

/** /help and anything under it that has no page of its own. */
export default function HelpScreen() {
  const { t } = useTranslation('help')
  useDocumentTitle(t('title'))
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      <section aria-labelledby="help-categories">
        <h2 id="help-categories">{t('categories.title')}</h2>
        <ul className="grid plain-list">
          {CATEGORIES.map((c) => (
            <li key={c.key}>
              <PreloadLink className="card card-md card-link" to={c.to}>
                <strong>{t(`categories.${c.key}`)}</strong>
                <span className="muted">{t(`categories.${c.key}Hint`)}</span>
              </PreloadLink>
            </li>
          ))}
        </ul>
      </section>
      <div className="grid">
        <Card as="section" aria-labelledby="help-popular">
          <h2 id="help-popular">{t('popular.title')}</h2>
          <PopularArticles />
        </Card>
        <Card as="section" aria-labelledby="help-tickets">
          <h2 id="help-tickets">{t('tickets.title')}</h2>
          <MyTickets />
        </Card>
        <Card as="section" aria-labelledby="help-contact">
          <h2 id="help-contact">{t('contactCard.title')}</h2>
          <p>{t('contactCard.text')}</p>
          <div className="button-row">
            <PreloadLink className="btn btn-primary btn-md" to="/help/contact">
              {t('contactCard.action')}
            </PreloadLink>
            <PreloadLink className="btn btn-outline btn-md" to="/help/faq">
              {t('contactCard.faq')}
            </PreloadLink>
          </div>
        </Card>
      </div>
    </div>
  )
}

// The popular articles are the documentation pages. The docs are written in
// English, so their titles come from the locale, the doc's own as a fallback.
function PopularArticles() {
  const { t } = useTranslation('help')
  const docs = useDocs()
  return (
    <QueryState query={docs}>
      {(list) => (
        <ul>
          {list
            .filter((d) => d.slug !== 'index')
            .map((d) => (
              <li key={d.slug}>
                <PreloadLink to={`/docs/${d.slug}`}>{t(`popular.articles.${d.slug}`, { defaultValue: d.title })}</PreloadLink>
              </li>
            ))}
        </ul>
      )}
    </QueryState>
  )
}
