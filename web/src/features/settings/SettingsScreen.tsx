import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/PageHeader'
import { SignInNotice } from '@/components/SignInNotice'
import { Tabs } from '@/components/Tabs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { AccountTab } from './AccountTab'
import { AuthorizedNodesTab } from './AuthorizedNodesTab'
import { NotificationsTab } from './NotificationsTab'
import { ProfileTab } from './ProfileForm'
import { SessionsSection } from './SessionsSection'
import { SshKeysTab } from './SshKeysTab'
import { TokensSection } from './TokensSection'
import { TwoFactorSection } from './TwoFactorSection'
import './settings.css'

export const TABS = ['profile', 'account', 'notifications', 'ssh', 'nodes', 'security'] as const
type Tab = (typeof TABS)[number]

const isTab = (s: string): s is Tab => (TABS as readonly string[]).includes(s)

/** Settings, one tab at a time; the tab is in the address (?tab=security) so reloads and links keep it. */
export default function SettingsScreen() {
  // 'auth' explains failed requests and wallet errors; loading it with the screen avoids a flash later.
  const { t } = useTranslation(['settings', 'auth', 'sshkeys'])
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  const [param, setParam] = useUrlParam('tab', 'profile')
  const tab: Tab = isTab(param) ? param : 'profile'
  return (
    <div className="settings">
      <PageHeader title={t('title')} />
      {user ? (
        <Tabs label={t('tabsLabel')} tabs={TABS.map((id) => ({ id, label: id === 'ssh' ? t('sshkeys:tab') : t(`tabs.${id}`) }))} selected={tab} onSelect={setParam}>
          <div className="settings-panel">
            {tab === 'profile' && <ProfileTab />}
            {tab === 'account' && <AccountTab user={user} />}
            {tab === 'notifications' && <NotificationsTab />}
            {tab === 'ssh' && <SshKeysTab />}
            {tab === 'nodes' && <AuthorizedNodesTab walletAddress={user.walletAddress} />}
            {tab === 'security' && (
              <>
                <TwoFactorSection />
                <TokensSection username={user.username} />
                <SessionsSection />
              </>
            )}
          </div>
        </Tabs>
      ) : (
        <SignInNotice message={t('signedOut')} />
      )}
    </div>
  )
}
