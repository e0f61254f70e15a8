import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Spinner } from '@/components/Spinner'
import { Input } from '@/components/Input'
import type { User } from '@/stores/auth'
import { checkUsername, keys, useClaimUsername } from './api'
import { ClaimError, type ClaimStep, USERNAME_PATTERN } from './username'
import { CopyButton, ErrorAlert, Section } from './Section'

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
        <UsernameForm user={user} />
      </Section>
    </>
  )
}

/** The value after it has stopped changing for a moment, so typing does not ask the server per key. */
function useSettled(value: string, ms = 300): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

type Verdict = 'empty' | 'invalid' | 'same' | 'checking' | 'available' | 'taken' | 'unavailable' | 'failed'

function UsernameForm({ user }: { user: User }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const [name, setName] = useState('')
  const [step, setStep] = useState<ClaimStep | null>(null)
  const [changedTo, setChangedTo] = useState<string | null>(null)
  const trimmed = name.trim()
  const settled = useSettled(trimmed)
  const valid = USERNAME_PATTERN.test(trimmed)
  const same = trimmed.toLowerCase() === user.username.toLowerCase()
  const check = useQuery({
    queryKey: keys.username(settled),
    queryFn: () => checkUsername(settled),
    enabled: valid && !same && settled === trimmed,
    staleTime: 5_000,
  })

  const claim = useClaimUsername(user, setStep, (username) => {
    setName('')
    setChangedTo(username)
  })

  let verdict: Verdict
  if (!trimmed) verdict = 'empty'
  else if (!valid) verdict = 'invalid'
  else if (same) verdict = 'same'
  else if (settled !== trimmed || check.isPending) verdict = 'checking'
  else if (check.isError) verdict = 'failed'
  else if (check.data?.available) verdict = 'available'
  else verdict = check.data?.reason ? 'unavailable' : 'taken'

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (verdict !== 'available' || claim.isPending) return
    setChangedTo(null)
    claim.mutate(trimmed)
  }

  const verdictText: Record<Verdict, string> = {
    empty: '',
    invalid: t('account.username.invalid'),
    same: t('account.username.same'),
    checking: t('account.username.checking'),
    available: t('account.username.available', { name: trimmed }),
    taken: t('account.username.taken', { name: trimmed }),
    unavailable: t('account.username.unavailable', { name: trimmed, reason: check.data?.reason ?? '' }),
    failed: t('account.username.checkFailed'),
  }
  const bad = verdict === 'invalid' || verdict === 'taken' || verdict === 'unavailable' || verdict === 'failed'

  return (
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('account.username.new')}</label>
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
          {verdictText[verdict]}
        </span>
      </div>
      <div className="button-row">
        <Button type="submit" disabled={verdict !== 'available' || claim.isPending}>
          {t('account.username.action')}
        </Button>
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
