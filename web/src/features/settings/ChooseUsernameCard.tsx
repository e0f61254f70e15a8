import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import type { User } from '@/stores/auth'
import { UsernameClaimForm } from './UsernameClaimForm'
import './settings.css'

/**
 * Offers an account that still has its default name ("user-" and hex) to
 * claim one: the settings page's claim, in a card above the page. Skip
 * hides it for good on this browser (UsernamePrompt remembers it).
 */
export default function ChooseUsernameCard({ user, onSkip }: { user: User; onSkip: () => void }) {
  const { t } = useTranslation('settings')
  const id = useId()
  return (
    <Card as="section" size="sm" className="choose-username" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('choose.title')}</h2>
      <p className="muted">{t('choose.description', { username: user.username })}</p>
      <UsernameClaimForm user={user} label={t('choose.label')} action={t('choose.action')}>
        <Button type="button" variant="ghost" onClick={onSkip}>
          {t('choose.skip')}
        </Button>
      </UsernameClaimForm>
    </Card>
  )
}

/** The prompt's place after a claim made in it: the new name, said in words, until the user closes it. */
export function UsernameClaimedCard({ username, onClose }: { username: string; onClose: () => void }) {
  const { t } = useTranslation('settings')
  return (
    <Card as="section" size="sm" className="choose-username" aria-label={t('choose.claimed')}>
      <p role="status" className="settings-ok">
        {t('account.username.changed', { username })}
      </p>
      <Button type="button" variant="outline" size="sm" onClick={onClose}>
        {t('choose.close')}
      </Button>
    </Card>
  )
}
