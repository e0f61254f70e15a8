import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'

/**
 * Shown in place of a signed-in page to a visitor who is signed out. The Login
 * button does nothing until wallet sign-in lands, and the notice says so.
 */
export function SignInNotice({ message }: { message: string }) {
  const { t } = useTranslation('users')
  return (
    <Card as="section" className="sign-in-notice">
      <p>
        <strong>{message}</strong>
      </p>
      <p className="muted">{t('signIn.availability')}</p>
    </Card>
  )
}
