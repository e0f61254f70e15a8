import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { PageHeader } from '@/components/PageHeader'
import { SignInNotice } from '@/components/SignInNotice'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import type { User } from '@/stores/auth'
import { ProfileForm } from './ProfileForm'
import { Tabs } from '@/components/Tabs'
import './settings.css'

const TABS = ['profile', 'account', 'notifications', 'security'] as const
type Tab = (typeof TABS)[number]
const NOTIFICATION_KINDS = ['mentions', 'reviewRequests', 'assigned', 'watching'] as const

export default function SettingsScreen() {
  const { t } = useTranslation('settings')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  const [tab, setTab] = useState<Tab>('profile')
  return (
    <div className="settings">
      <PageHeader title={t('title')} />
      {user ? (
        <Tabs label={t('tabsLabel')} tabs={TABS.map((id) => ({ id, label: t(`tabs.${id}`) }))} selected={tab} onSelect={setTab}>
          <div className="settings-panel">
            {tab === 'profile' && <ProfileForm user={user} />}
            {tab === 'account' && <AccountTab user={user} />}
            {tab === 'notifications' && <NotificationsTab />}
            {tab === 'security' && <SecurityTab />}
          </div>
        </Tabs>
      ) : (
        <SignInNotice message={t('signedOut')} />
      )}
    </div>
  )
}

/** A titled part of a tab with one action that waits for a later milestone. */
function PendingSection({ title, children, action, note }: { title: string; children: ReactNode; action: string; note: string }) {
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <Button variant="outline" disabled aria-describedby={`${id}-note`}>
        {action}
      </Button>
      <p id={`${id}-note`} className="muted settings-note">
        {note}
      </p>
    </section>
  )
}

function AccountTab({ user }: { user: User }) {
  const { t } = useTranslation('settings')
  return (
    <>
      <PendingSection title={t('account.username.title')} action={t('account.username.action')} note={t('account.note')}>
        <p>{t('account.username.current', { username: user.username })}</p>
        <p className="muted">{t('account.username.description')}</p>
      </PendingSection>
      <PendingSection
        title={t('account.wallet.title')}
        action={user.walletAddress ? t('account.wallet.disconnect') : t('account.wallet.connect')}
        note={t('account.note')}
      >
        <p>{user.walletAddress ? <code>{user.walletAddress}</code> : t('account.wallet.none')}</p>
        <p className="muted">{t('account.wallet.description')}</p>
      </PendingSection>
    </>
  )
}

function NotificationsTab() {
  const { t } = useTranslation('settings')
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('notifications.title')}</h2>
      <p className="muted">{t('notifications.description')}</p>
      <fieldset className="settings-checks" aria-describedby={`${id}-note`}>
        <legend>{t('notifications.legend')}</legend>
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind}>
            <input type="checkbox" name={kind} disabled />
            {t(`notifications.kinds.${kind}`)}
          </label>
        ))}
      </fieldset>
      <p id={`${id}-note`} className="muted settings-note">
        {t('notifications.note')}
      </p>
    </section>
  )
}

function SecurityTab() {
  const { t } = useTranslation('settings')
  return (
    <>
      <PendingSection title={t('security.twoFactor.title')} action={t('security.twoFactor.action')} note={t('security.note')}>
        <p>{t('security.twoFactor.description')}</p>
      </PendingSection>
      <PendingSection title={t('security.tokens.title')} action={t('security.tokens.action')} note={t('security.note')}>
        <p>{t('security.tokens.description')}</p>
        <p className="muted">{t('security.tokens.scopes')}</p>
      </PendingSection>
      <PendingSection title={t('security.sessions.title')} action={t('security.sessions.action')} note={t('security.note')}>
        <p>{t('security.sessions.description')}</p>
      </PendingSection>
    </>
  )
}
