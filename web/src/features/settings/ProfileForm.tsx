import { type FormEvent, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { Field } from '@/components/Field'
import type { ServerUser } from '@/lib/authApi'
import { ApiError } from '@/lib/http'
import { useCurrentUser, useSaveProfile } from './api'
import { type FieldError, LIMITS, type ProfileField, SERVER_FIELDS, toPatch, useProfileForm } from './profileForm'
import { ErrorAlert } from './Section'

/** The profile tab: the server's profile, checked as the user types, saved with PATCH. */
export function ProfileTab() {
  const query = useCurrentUser()
  return <QueryState query={query}>{(user) => <ProfileForm user={user} />}</QueryState>
}

function ProfileForm({ user }: { user: ServerUser }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const form = useProfileForm({
    displayName: user.full_name ?? '',
    bio: user.description ?? '',
    location: user.location ?? '',
    website: user.website ?? '',
    email: user.email ?? '',
  })
  const [saved, setSaved] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const save = useSaveProfile({
    onSuccess: () => setSaved(true),
    onError: (err) => {
      const field = err instanceof ApiError && err.field ? SERVER_FIELDS[err.field] : undefined
      if (field) {
        form.setServerError(field, err.message)
        formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus()
      }
    },
  })
  const fieldError = save.error instanceof ApiError && save.error.field && SERVER_FIELDS[save.error.field]

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setSaved(false)
    form.touchAll()
    if (form.firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${form.firstInvalid}"]`)?.focus()
      return
    }
    save.mutate(toPatch(form.values))
  }

  const errorText = (err: FieldError) =>
    err.key === 'server' ? err.message : t(`profile.errors.${err.key}`, err.key === 'tooLong' ? { max: err.max } : {})

  const field = (name: ProfileField, opts: { type?: string; autoComplete?: string; multiline?: boolean; hint?: string } = {}) => {
    const fieldId = `${id}-${name}`
    const err = form.errors[name]
    const props = {
      id: fieldId,
      name,
      value: form.values[name],
      onChange: (e: { target: { value: string } }) => {
        setSaved(false)
        form.setField(name, e.target.value)
      },
      onBlur: () => form.touch(name),
    }
    return (
      <Field label={t(`profile.fields.${name}`)} hint={opts.hint} error={err ? errorText(err) : undefined}>
        {opts.multiline ? <Textarea rows={4} {...props} /> : <Input type={opts.type ?? 'text'} autoComplete={opts.autoComplete ?? 'off'} {...props} />}
      </Field>
    )
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-busy={save.isPending || undefined}>
      {field('displayName', { autoComplete: 'name' })}
      {field('bio', { multiline: true, hint: t('profile.hints.bio', { max: LIMITS.bio }) })}
      {field('location')}
      {field('website', { type: 'url', autoComplete: 'url', hint: t('profile.hints.website') })}
      {field('email', { type: 'email', autoComplete: 'email', hint: t('profile.hints.email') })}
      <Field label={t('profile.fields.walletAddress')} hint={user.wallet_address ? t('profile.hints.wallet') : t('profile.hints.noWallet')}>
        <Input id={`${id}-wallet`} value={user.wallet_address ?? ''} readOnly />
      </Field>
      <div className="button-row">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('profile.save')}
        </Button>
      </div>
      <div role="status" className="settings-note">
        {saved && <span className="alert-success">{t('profile.saved')}</span>}
      </div>
      {save.isError && !fieldError && <ErrorAlert error={save.error} />}
    </form>
  )
}
