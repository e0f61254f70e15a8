import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { SignInNotice } from '@/components/SignInNotice'
import { PreloadLink } from '@/components/PreloadLink'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useAuthStore } from '@/stores/auth'
import { isWorkspaceSlug, type PersonalSlug, type WorkspaceSlug } from './slugs'
import './workspace.css'

/**
 * /feed, /messages, /dashboard, /reports, /admin need a signed-in
 * user; /monitoring is public and points at the node's observability today.
 */
export default function WorkspaceScreen() {
  const slug = useRoute().pathname.split('/').filter(Boolean)[0] ?? ''
  return isWorkspaceSlug(slug) ? <WorkspacePage slug={slug} /> : <UnknownPage />
}

function WorkspacePage({ slug }: { slug: WorkspaceSlug }) {
  const { t } = useTranslation('workspace')
  const signedIn = useAuthStore((s) => s.isAuthenticated)
  useDocumentTitle(t(`pages.${slug}.title`))
  return (
    <>
      <PageHeader title={t(`pages.${slug}.title`)} lead={t(`pages.${slug}.lead`)} />
      {slug === 'monitoring' ? (
        <Monitoring />
      ) : !signedIn ? (
        <SignInNotice message={t(`pages.${slug}.signIn`)} />
      ) : slug === 'admin' ? (
        <Admin />
      ) : (
        <Personal slug={slug} />
      )}
    </>
  )
}

function Personal({ slug }: { slug: PersonalSlug }) {
  const { t } = useTranslation('workspace')
  return (
    <>
      <p className="muted">{t(`pages.${slug}.status`)}</p>
      <EmptyState message={t(`pages.${slug}.empty`)} />
    </>
  )
}

function Admin() {
  const { t } = useTranslation('workspace')
  return (
    <Card className="workspace-notice">
      <p>{t('pages.admin.operator')}</p>
      <ul className="workspace-links">
        <li>
          <PreloadLink to="/docs/running-a-node">{t('pages.admin.links.runningNode')}</PreloadLink>
        </li>
        <li>
          <PreloadLink to="/docs/configuration">{t('pages.admin.links.configuration')}</PreloadLink>
        </li>
        <li>
          <PreloadLink to="/monitoring">{t('pages.admin.links.monitoring')}</PreloadLink>
        </li>
      </ul>
    </Card>
  )
}

// /status and /analytics are app pages; /metrics and /healthz are the node's
// own endpoints, so they are plain links that leave the app.
const MONITORING = [
  { id: 'status', path: '/status', app: true },
  { id: 'analytics', path: '/analytics', app: true },
  { id: 'metrics', path: '/metrics', app: false },
  { id: 'healthz', path: '/healthz', app: false },
] as const

function Monitoring() {
  const { t } = useTranslation('workspace')
  return (
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
  )
}

function UnknownPage() {
  const { t } = useTranslation()
  const { pathname } = useRoute()
  useDocumentTitle(t('notFound.title'))
  return <PageHeader title={t('notFound.title')} lead={t('notFound.description', { path: pathname })} />
}
