import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './workspace.css'

// /status and /analytics are app pages; /metrics and /healthz are the node's
// own endpoints, so they are plain links that leave the app.
const MONITORING = [
  { id: 'status', path: '/status', app: true },
  { id: 'analytics', path: '/analytics', app: true },
  { id: 'metrics', path: '/metrics', app: false },
  { id: 'healthz', path: '/healthz', app: false },
] as const

/** /monitoring: public pointers to the node's observability. */
export default function WorkspaceScreen() {
  const { t } = useTranslation('workspace')
  useDocumentTitle(t('pages.monitoring.title'))
  return (
    <>
      <PageHeader title={t('pages.monitoring.title')} lead={t('pages.monitoring.lead')} />
      <ul className="grid workspace-cards">
        {MONITORING.map((item) => {
          const label = t('pages.monitoring.open', { path: item.path })
          return (
            <Card as="li" key={item.id}>
              <h2>{t(`pages.monitoring.items.${item.id}.title`)}</h2>
              <p className="muted">{t(`pages.monitoring.items.${item.id}.description`)}</p>
              {item.app ? <PreloadLink to={item.path}>{label}</PreloadLink> : <a href={item.path}>{label}</a>}
            </Card>
          )
        })}
      </ul>
    </>
  )
}
