import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { SignInNotice } from '@/components/SignInNotice'
import { Tabs } from '@/components/Tabs'
import { NotFoundScreen } from '@/features/errors'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { NodeTab } from './NodeTab'
import { SettingsTab } from './SettingsTab'
import { TicketsTab } from './TicketsTab'
import { UsersTab } from './UsersTab'
import './admin.css'

const TABS = ['users', 'tickets', 'node', 'settings'] as const
type Tab = (typeof TABS)[number]

/**
 * /admin, the console of the node's admins (serve --admin). A visitor is
 * asked to sign in, as on every personal page; a signed-in user who is not
 * an admin sees the not-found page of any unknown route, as the API answers
 * them 404.
 */
export default function AdminScreen() {
  const user = useSignedInUser()
  if (!user) return <SignedOut />
  if (!user.isAdmin) return <NotFoundScreen />
  return <Console />
}

function SignedOut() {
  const { t } = useTranslation('admin')
  useDocumentTitle(t('title'))
  return (
    <>
      <PageHeader title={t('title')} />
      <SignInNotice message={t('signIn')} />
    </>
  )
}

function Console() {
  const { t } = useTranslation('admin')
  useDocumentTitle(t('title'))
  const [raw, setTab] = useUrlParam('tab', 'users')
  const tab: Tab = (TABS as readonly string[]).includes(raw) ? (raw as Tab) : 'users'
  return (
    <div className="stack admin-console">
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          <PreloadLink className="btn btn-outline btn-md" to="/reports">
            {t('reportsLink')}
          </PreloadLink>
        }
      />
      <Tabs label={t('tabsLabel')} tabs={TABS.map((id) => ({ id, label: t(`tabs.${id}`) }))} selected={tab} onSelect={setTab}>
        {tab === 'users' && <UsersTab />}
        {tab === 'tickets' && <TicketsTab />}
        {tab === 'node' && <NodeTab />}
        {tab === 'settings' && <SettingsTab />}
      </Tabs>
    </div>
  )
}
