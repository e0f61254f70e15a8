import { Card } from './Card'
import { PreloadLink } from './PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

export interface NotFoundLink {
  to: string
  label: string
}

/**
 * A 404 page's card: the title, what is missing, an optional muted note, and
 * where to go instead (the first link is the primary one). The tab's title
 * says what is missing, unless the screen around it names one itself.
 */
export function NotFoundCard({ title, description, note, links }: { title: string; description: string; note?: string; links: NotFoundLink[] }) {
  useDocumentTitle(title)
  return (
    <Card size="lg" className="error-fallback">
      <p className="muted">404</p>
      <h1>{title}</h1>
      <p>{description}</p>
      {note && <p className="muted">{note}</p>}
      <div className="button-row">
        {links.map((link, i) => (
          <PreloadLink key={link.to} className={`btn ${i === 0 ? 'btn-primary' : 'btn-outline'} btn-md`} to={link.to}>
            {link.label}
          </PreloadLink>
        ))}
      </div>
    </Card>
  )
}
