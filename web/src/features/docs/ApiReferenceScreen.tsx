import type { TFunction } from 'i18next'
import { useId, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useDoc } from './api'
import { DocsSidebar } from './DocsSidebar'
import {
  type Endpoint,
  endpointsOf,
  filterEndpoints,
  groupEndpoints,
  OPENAPI_URL,
  type OpenApiDocument,
  type OpenApiParameter,
  useOpenApi,
} from './openapi'
import './docs.css'

/** /docs/api and /api: the endpoints of the generated OpenAPI document, then the API overview document. */
export default function ApiReferenceScreen() {
  const { t } = useTranslation('docs')
  const doc = useDoc('api')
  const spec = useOpenApi()
  useDocumentTitle(t('api.title'))
  return (
    <div className="docs-layout">
      <DocsSidebar current="api" />
      <article>
        <PageHeader title={t('api.title')} lead={t('api.lead')} />
        <section className="docs-endpoints" aria-labelledby="api-endpoints">
          <h2 id="api-endpoints">{t('api.endpoints')}</h2>
          <p className="muted">
            {t('api.generated')}{' '}
            <a href={OPENAPI_URL} download="openapi.json">
              {t('api.download')}
            </a>
          </p>
          <p className="muted">{t('api.authHelp')}</p>
          <QueryState query={spec}>{(d) => <EndpointList doc={d} />}</QueryState>
        </section>
        <section aria-labelledby="api-overview">
          <h2 id="api-overview">{t('api.overview')}</h2>
          <QueryState query={doc}>{(d) => <Markdown html={d.html} />}</QueryState>
        </section>
      </article>
    </div>
  )
}

function EndpointList({ doc }: { doc: OpenApiDocument }) {
  const { t } = useTranslation('docs')
  const id = useId()
  const [query, setQuery] = useUrlParam('q')
  const all = useMemo(() => endpointsOf(doc), [doc])
  const shown = useMemo(() => filterEndpoints(all, query), [all, query])
  const groups = useMemo(() => groupEndpoints(shown), [shown])
  return (
    <>
      <form role="search" className="api-filter" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('api.filter.label')}>
          <Input
            id={id}
            type="search"
            value={query}
            placeholder={t('api.filter.placeholder')}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-count`}
            onChange={(e) => setQuery(e.target.value)}
          />
        </Field>
      </form>
      <p id={`${id}-count`} className="muted" role="status">
        {t('api.shown', { count: all.length, shown: shown.length })}
      </p>
      {groups.length === 0 ? (
        <p className="empty-state">{t('api.noMatch', { query: query.trim() })}</p>
      ) : (
        groups.map((g) => (
          <section key={g.groupPath} className="api-group" aria-labelledby={`${id}-${g.group}`}>
            <h3 id={`${id}-${g.group}`}>
              <code>{g.groupPath}</code> <span className="muted">{g.endpoints.length}</span>
            </h3>
            <ul className="plain-list api-endpoint-list">
              {g.endpoints.map((e) => (
                <EndpointItem key={`${e.method} ${e.path}`} endpoint={e} />
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  )
}

function EndpointItem({ endpoint: e }: { endpoint: Endpoint }) {
  const { t } = useTranslation('docs')
  return (
    <li className="api-endpoint" id={`op-${e.id}`}>
      <div className="api-endpoint-head">
        <code className={`api-method api-method-${e.method.toLowerCase()}`}>{e.method}</code>
        <code className="api-path">{e.path}</code>
        <span className={`badge api-access api-access-${e.access}`}>{accessText(t, e)}</span>
      </div>
      {e.summary && <p className="api-summary">{e.summary}</p>}
      {e.description && <p className="api-description muted">{e.description}</p>}
      {(e.parameters.length > 0 || e.body) && (
        <div className="api-params">
          <span className="api-params-title">{t('api.parameters')}</span>
          <ul className="plain-list">
            {e.parameters.map((p) => (
              <li key={`${p.in} ${p.name}`}>
                <code>{p.name}</code> <span className="muted">{paramText(t, p)}</span>
                {p.description && <span className="muted"> — {p.description}</span>}
              </li>
            ))}
            {e.body && (
              <li>
                <span className="muted">{t('api.body')}</span>
              </li>
            )}
          </ul>
        </div>
      )}
    </li>
  )
}

function accessText(t: TFunction, e: Endpoint): string {
  switch (e.access) {
    case 'public':
      return t('api.access.public')
    case 'owner':
      return t('api.access.owner', { scope: e.scope })
    default:
      return t('api.access.signedIn', { scope: e.scope })
  }
}

function paramText(t: TFunction, p: OpenApiParameter): string {
  const parts = [p.in === 'path' ? t('api.in.path') : p.in === 'query' ? t('api.in.query') : p.in === 'header' ? t('api.in.header') : t('api.in.cookie')]
  if (p.schema?.type) parts.push(p.schema.type)
  if (p.required) parts.push(t('api.required'))
  return parts.join(' · ')
}
