import { type FormEvent, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import type { User } from '@/stores/auth'
import { type FieldError, LIMITS, type ProfileField, useProfileForm } from './profileForm'

/**
 * The profile fields, checked as the user types. Saving needs the accounts
 * of the chain milestone, so Save is disabled and says so.
 */
export function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const form = useProfileForm({ displayName: user.displayName ?? '', bio: '', location: '', website: '', email: '' })

  // Save is disabled, so this only runs if a browser submits anyway; it shows every error.
  const submit = (e: FormEvent) => {
    e.preventDefault()
    form.touchAll()
  }

  const field = (name: ProfileField, opts: { type?: string; autoComplete?: string; multiline?: boolean; hint?: string } = {}) => {
    const fieldId = `${id}-${name}`
    const err = form.errors[name]
    const describedBy = [opts.hint && `${fieldId}-hint`, err && `${fieldId}-error`].filter(Boolean).join(' ') || undefined
    const props = {
      id: fieldId,
      name,
      value: form.values[name],
      'aria-invalid': err ? true : undefined,
      'aria-describedby': describedBy,
      onChange: (e: { target: { value: string } }) => form.setField(name, e.target.value),
      onBlur: () => form.touch(name),
    }
    return (
      <div className="field">
        <label htmlFor={fieldId}>{t(`profile.fields.${name}`)}</label>
        {opts.multiline ? <textarea rows={4} {...props} /> : <input type={opts.type ?? 'text'} autoComplete={opts.autoComplete ?? 'off'} {...props} />}
        {opts.hint && (
          <span id={`${fieldId}-hint`} className="muted">
            {opts.hint}
          </span>
        )}
        {err && (
          <span id={`${fieldId}-error`} className="field-error">
            {errorText(err)}
          </span>
        )}
      </div>
    )
  }
  const errorText = (err: FieldError) => t(`profile.errors.${err.key}`, err.key === 'tooLong' ? { max: err.max } : {})

  return (
    <form onSubmit={submit} noValidate>
      {field('displayName', { autoComplete: 'name' })}
      {field('bio', { multiline: true, hint: t('profile.hints.bio', { max: LIMITS.bio }) })}
      {field('location')}
      {field('website', { type: 'url', autoComplete: 'url', hint: t('profile.hints.website') })}
      {field('email', { type: 'email', autoComplete: 'email', hint: t('profile.hints.email') })}
      <div className="field">
        <label htmlFor={`${id}-wallet`}>{t('profile.fields.walletAddress')}</label>
        <input id={`${id}-wallet`} value={user.walletAddress ?? ''} readOnly aria-describedby={`${id}-wallet-hint`} />
        <span id={`${id}-wallet-hint`} className="muted">
          {user.walletAddress ? t('profile.hints.wallet') : t('profile.hints.noWallet')}
        </span>
      </div>
      <Button type="submit" disabled aria-describedby={`${id}-save-note`}>
        {t('profile.save')}
      </Button>
      <p id={`${id}-save-note`} className="muted settings-note">
        {t('profile.saveNote')}
      </p>
    </form>
  )
}
