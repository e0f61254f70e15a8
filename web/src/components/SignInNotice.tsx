import { useTranslation } from 'react-i18next'
import { Card } from './Card'
import { PreloadLink } from './PreloadLink'

/**
 * Shown in place of a signed-in page to a visitor who is signed out. Wallet
 * sign-in is the Login button in the header, and the notice points there.
 */
export function SignInNotice({ message }: { message: string }) {
  const { t } = useTranslation()
  return (
    <Card as="section" className="sign-in-notice" role="status">
      <p>
        <strong>{message}</strong>
      </p>
      <p className="muted">{t('signIn.availability')}</p>
      <PreloadLink to="/docs/wallet-sign-in">{t('signIn.howItWorks')}</PreloadLink>
    </Card>
  )
}
