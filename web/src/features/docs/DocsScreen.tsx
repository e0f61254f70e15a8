import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { isDocSlug, useDoc } from './api'
import { DocsSidebar } from './DocsSidebar'
import './docs.css'

/** /docs and /docs/{slug}: the documents from content/docs with a sidebar of all of them. */
export default function DocsScreen() {
  const { t } = useTranslation('docs')
  // "/docs" and "/docs/" have no rest path: both show the index.
  const slug = useRoute().params['*'] || 'index'
  const doc = useDoc(slug)
  const missing = !isDocSlug(slug) || doc.error instanceof NotFoundError
  useDocumentTitle(missing ? t('notFound.title') : doc.data?.title)
  return (
    <div className="docs-layout">
      <DocsSidebar current={slug} />
      <div>
        {missing ? (
          <DocNotFound slug={slug} />
        ) : (
          <QueryState query={doc}>
            {(d) => (
              <article>
                <PageHeader title={d.title || t('title')} />
                <Markdown html={d.html} />
              </article>
            )}
          </QueryState>
        )}
      </div>
    </div>
  )
}

function DocNotFound({ slug }: { slug: string }) {
  const { t } = useTranslation('docs')
  return (
    <section>
      <PageHeader title={t('notFound.title')} lead={t('notFound.description', { slug })} />
      <PreloadLink className="btn btn-primary btn-md" to="/docs">
        {t('notFound.back')}
      </PreloadLink>
    </section>
  )
}
