import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { errorText } from '@/lib/http'
import { useAddEmail, useEmails, useRemoveEmail } from './api'

/**
 * The emails under which one's commits count as one's own: the wallet's
 * address email, and emails one claims on chain (public, signed, first
 * come; not a mailbox check).
 */
export function EmailClaims() {
  const { t } = useTranslation('people')
  const id = useId()
  const emails = useEmails()
  const [email, setEmail] = useState('')
  const add = useAddEmail(() => setEmail(''))
  const remove = useRemoveEmail()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (email.trim()) add.mutate(email.trim())
  }
  return (
    <Card as="section" className="profile-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('emails.title')}</h2>
      <p className="muted">{t('emails.help')}</p>
      <QueryState query={emails}>
        {(list) => (
          <ul className="plain-list email-list">
            {list.map((e) => (
              <li key={e.email}>
                <code>{e.email}</code> {e.primary ? <span className="badge">{t('emails.wallet')}</span> : <span className="badge">{t('emails.claimed')}</span>}
                {!e.primary && (
                  <Button size="sm" variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate(e.email)} aria-label={t('emails.removeNamed', { email: e.email })}>
                    {t('emails.remove')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <form onSubmit={submit} className="collaborator-form">
        <Field label={t('emails.label')}>
          <Input id={`${id}-e`} type="email" value={email} autoComplete="email" maxLength={254} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Button type="submit" disabled={add.isPending || !email.trim()}>
          {t('emails.add')}
        </Button>
      </form>
      {(add.isError || remove.isError) && (
        <p className="alert-error" role="alert">
          {errorText(add.error ?? remove.error)}
        </p>
      )}
    </Card>
  )
}
