import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Input } from '@/components/Input'
import { Spinner } from '@/components/Spinner'
import type { User } from '@/stores/auth'
import { useClaimUsername } from './api'
import { ErrorAlert } from './Section'
import { ClaimError, type ClaimStep } from './username'
import { useUsernameCheck } from './useUsernameCheck'

interface UsernameClaimFormProps {
  user: User
  /** The field's label and the submit button's text. */
  label: string
  action: string
  /** More buttons beside the submit button (a Skip). */
  children?: ReactNode
}

/**
 * A new username, checked as it is typed (useUsernameCheck) and claimed on
 * chain with the wallet's signature; the settings page and the first
 * sign-in's prompt both use it.
 */
export function UsernameClaimForm({ user, label, action, children }: UsernameClaimFormProps) {
  const { t } = useTranslation('settings')
  const id = useId()
  const [name, setName] = useState('')
  const [step, setStep] = useState<ClaimStep | null>(null)
  const [changedTo, setChangedTo] = useState<string | null>(null)
  const { name: trimmed, verdict, text, bad } = useUsernameCheck(name, user.username)

  const claim = useClaimUsername(user, setStep, (username) => {
    setName('')
    setChangedTo(username)
  })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (verdict !== 'available' || claim.isPending) return
    setChangedTo(null)
    claim.mutate(trimmed)
  }

  return (
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>{label}</label>
        <Input
          id={`${id}-name`}
          name="username"
          value={name}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={39}
          aria-invalid={bad || undefined}
          aria-describedby={`${id}-hint ${id}-verdict`}
          onChange={(e) => {
            setName(e.target.value)
            claim.reset()
          }}
        />
        <span id={`${id}-hint`} className="muted">
          {t('account.username.hint')}
        </span>
        <span id={`${id}-verdict`} role="status" className={bad ? 'field-error' : verdict === 'available' ? 'settings-ok' : 'muted'}>
          {text}
        </span>
      </div>
      <div className="button-row">
        <Button type="submit" disabled={verdict !== 'available' || claim.isPending}>
          {action}
        </Button>
        {children}
      </div>
      {claim.isPending && (
        <p className="inline-loading" role="status">
          <Spinner size="sm" /> <span>{step === 'submitting' ? t('account.username.submitting') : t('account.username.signing')}</span>
        </p>
      )}
      {changedTo && !claim.isPending && (
        <p className="alert-success" role="status">
          {t('account.username.changed', { username: changedTo })}
        </p>
      )}
      {claim.isError &&
        (claim.error instanceof ClaimError ? (
          <p className="alert-error" role="alert">
            {t(`account.username.errors.${claim.error.key}`, claim.error.values)}
          </p>
        ) : (
          <ErrorAlert error={claim.error} />
        ))}
    </form>
  )
}
