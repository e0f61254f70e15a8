import { useTranslation } from 'react-i18next'
import type { User } from '@/stores/auth'
import { CopyButton, Section } from './Section'
import { UsernameClaimForm } from './UsernameClaimForm'

export function AccountTab({ user }: { user: User }) {
  const { t } = useTranslation('settings')
  return (
    <>
      <Section title={t('account.wallet.title')}>
        <p className="muted">{t('account.wallet.description')}</p>
        {user.walletAddress ? (
          <p className="settings-copy-row">
            <code aria-label={t('account.wallet.address')}>{user.walletAddress}</code>
            <CopyButton text={user.walletAddress} label={t('account.wallet.copy')} />
          </p>
        ) : (
          <p>{t('account.wallet.none')}</p>
        )}
      </Section>
      <Section title={t('account.username.title')}>
        <p>{t('account.username.current', { username: user.username })}</p>
        <p className="muted">{t('account.username.description')}</p>
        <UsernameClaimForm user={user} label={t('account.username.new')} action={t('account.username.action')} />
      </Section>
    </>
  )
}
