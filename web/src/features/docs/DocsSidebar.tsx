import { useTranslation } from 'react-i18next'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { docPath, useDocs } from './api'

/** The list of documents, with the one on screen marked as the current page. */
export function DocsSidebar({ current }: { current: string }) {
  const { t } = useTranslation('docs')
  const docs = useDocs()
  return (
    <nav className="docs-sidebar" aria-labelledby="docs-sidebar-title">
      <p className="docs-sidebar-title" id="docs-sidebar-title">
        {t('sidebar.title')}
      </p>
      <QueryState query={docs}>
        {(list) => (
          <ul>
            {list.map((d) => (
              <li key={d.slug}>
                <PreloadLink to={docPath(d.slug)} aria-current={d.slug === current ? 'page' : undefined}>
                  {d.title || d.slug}
                </PreloadLink>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </nav>
  )
}
