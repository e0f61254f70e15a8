import { useTranslation } from 'react-i18next'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useDoc } from './api'
import { DocsSidebar } from './DocsSidebar'
import { ENDPOINTS } from './endpoints'
import './docs.css'

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
      <div className="docs-table-scroll">
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
      </div>
      <p className="muted">
        {t('api.later')} <PreloadLink to="/roadmap">{t('api.roadmap')}</PreloadLink>
      </p>
    </section>
  )
}
