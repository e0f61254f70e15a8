import { useRoute } from '@/lib/routes'
import { Markdown } from '@/components/Markdown'
import { QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { usePage } from './api'

/** Informational pages (about, pricing, terms, ...) from the repo's Markdown. */
export default function InfoScreen() {
  const slug = useRoute().pathname.split('/').filter(Boolean)[0] ?? 'about'
  const page = usePage(slug)
  useDocumentTitle(page.data?.title)
  return (
    <QueryState query={page}>
      {(p) => (
        <article>
          <h1>{p.title}</h1>
          <Markdown html={p.html} />
        </article>
      )}
    </QueryState>
  )
}
