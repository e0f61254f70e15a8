import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { PageHeader } from '@/components/PageHeader'
import { ApiError } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import type { User } from '@/stores/auth'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { PreloadLink } from '@/components/PreloadLink'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { type ContactMessage, useSendContact } from './api'
import { type ContactErrors, LIMITS, validateContact } from './contactForm'
import './help.css'

const EMPTY: ContactMessage = { name: '', email: '', subject: '', message: '' }

/** The form's starting values: a signed-in user's name is filled in. */
function initial(user: User | null): ContactMessage {
  return user ? { ...EMPTY, name: user.displayName || user.username } : EMPTY
}

export default function ContactScreen() {
  const { t } = useTranslation('help')
  const user = useSignedInUser()
  const [values, setValues] = useState(() => initial(user))
  const [errors, setErrors] = useState<ContactErrors>({})
  const [sent, setSent] = useState(false)
  const send = useSendContact()
  useDocumentTitle(t('contact.title'))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const found = validateContact(values)
    setErrors(found)
    if (Object.keys(found).length > 0) {
      document.getElementById(`contact-${Object.keys(found)[0]}`)?.focus()
      return
    }
    send.mutate(values, {
      onSuccess: () => {
        setSent(true)
        setValues(initial(user))
      },
      onError: (err) => {
        // A field the server rejected is shown on that field; the text stays.
        if (err instanceof ApiError && err.field && err.field in LIMITS) {
          setErrors({ [err.field]: { key: err.code === 'invalid_email' ? 'email' : err.code === 'too_long' ? 'tooLong' : 'required' } })
        }
      },
    })
  }

  if (sent) {
    return (
      <div className="stack contact-form">
        <PageHeader title={t('contact.title')} />
        <p className="alert-success" role="status">
          {t('contact.success')}
        </p>
        {user && (
          <p>
            <PreloadLink to="/help">{t('tickets:followUp')}</PreloadLink>
          </p>
        )}
        <div>
          <Button variant="outline" onClick={() => setSent(false)}>
            {t('contact.sendAnother')}
          </Button>
        </div>
      </div>
    )
  }

  const field = (name: keyof ContactMessage, multiline = false) => {
    const err = errors[name]
    const id = `contact-${name}`
    const props = {
      id,
      name,
      value: values[name],
      maxLength: LIMITS[name],
      onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    }
    return (
      <Field label={t(`contact.${name}`)} hint={name === 'email' && !err ? t('contact.emailHint') : undefined} error={err ? t(`contact.errors.${err.key}`, { max: err.max }) : undefined}>
        {multiline ? <Textarea rows={7} {...props} /> : <Input type={name === 'email' ? 'email' : 'text'} autoComplete={name === 'name' ? 'name' : name === 'email' ? 'email' : 'off'} {...props} />}
      </Field>
    )
  }

  return (
    <div className="stack contact-form">
      <PageHeader title={t('contact.title')} lead={t('contact.lead')} />
      <form onSubmit={submit} noValidate>
        {field('name')}
        {field('email')}
        {field('subject')}
        {field('message', true)}
        {send.isError && !(send.error instanceof ApiError && send.error.field) && (
          <p className="alert-error" role="alert">
            {t('contact.failed', { reason: send.error instanceof ApiError ? send.error.message : t('contact.networkFailed') })}
          </p>
        )}
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? t('contact.sending') : t('contact.send')}
        </Button>
      </form>
    </div>
  )
}
