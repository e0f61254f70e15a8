import { useTranslation } from 'react-i18next'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useDoc } from './api'
import { DocsSidebar } from './DocsSidebar'
import './docs.css'

// What this node answers today (internal/api/api.go and internal/web/server.go).
// Methods and paths are identifiers, so they stay out of the translations; each
// purpose is the translated string api.endpoints.<id>.
export const ENDPOINTS = [
  { id: 'version', method: 'GET', path: '/api/v1/version' },
  { id: 'page', method: 'GET', path: '/api/v1/pages/{slug}' },
  { id: 'docs', method: 'GET', path: '/api/v1/docs' },
  { id: 'doc', method: 'GET', path: '/api/v1/docs/{slug}' },
  { id: 'blog', method: 'GET', path: '/api/v1/blog' },
  { id: 'post', method: 'GET', path: '/api/v1/blog/{slug}' },
  { id: 'faq', method: 'GET', path: '/api/v1/faq' },
  { id: 'markdown', method: 'POST', path: '/api/v1/markdown' },
  { id: 'contact', method: 'POST', path: '/api/v1/contact' },
  { id: 'vitalsPost', method: 'POST', path: '/api/analytics/web-vitals' },
  { id: 'vitals', method: 'GET', path: '/api/v1/analytics/web-vitals' },
  { id: 'healthz', method: 'GET', path: '/healthz' },
  { id: 'metrics', method: 'GET', path: '/metrics' },
] as const

/** /docs/api and /api: the endpoints that exist now, then the API overview document. */
export default function ApiReferenceScreen() {
  const { t } = useTranslation('docs')
  const doc = useDoc('api')
  useDocumentTitle(t('api.title'))
  return (
    <div className="docs-layout">
      <DocsSidebar current="api" />
      <article>
        <PageHeader title={t('api.title')} lead={t('api.lead')} />
        <EndpointTable />
        <section aria-labelledby="api-overview">
          <h2 id="api-overview">{t('api.overview')}</h2>
          <QueryState query={doc}>{(d) => <Markdown html={d.html} />}</QueryState>
        </section>
      </article>
    </div>
  )
}

function EndpointTable() {
  const { t } = useTranslation('docs')
  return (
    <section className="docs-endpoints" aria-labelledby="api-today">
      <h2 id="api-today">{t('api.today')}</h2>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">{t('api.method')}</th>
            <th scope="col">{t('api.path')}</th>
            <th scope="col">{t('api.purpose')}</th>
          </tr>
        </thead>
        <tbody>
          {ENDPOINTS.map((e) => (
            <tr key={e.id}>
              <td>
                <code>{e.method}</code>
              </td>
              <td>
                <code>{e.path}</code>
              </td>
              <td>{t(`api.endpoints.${e.id}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        {t('api.later')} <PreloadLink to="/roadmap">{t('api.roadmap')}</PreloadLink>
      </p>
    </section>
  )
}
