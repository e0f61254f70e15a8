import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { errorText } from '@/lib/http'
import { HOOK_EVENTS, type Hook, type HookSettings } from './api'

interface HookFormProps {
  title: string
  /** The hook being edited; none for a new one. */
  hook?: Hook
  pending: boolean
  error: Error | null
  onSubmit: (s: HookSettings) => void
  onCancel: () => void
}

/** The settings of a new or an existing hook: URL, content type, secret, events, branch filter and whether it is active. */
export function HookForm({ title, hook, pending, error, onSubmit, onCancel }: HookFormProps) {
  const { t } = useTranslation('webhooks')
  const id = useId()
  const [url, setURL] = useState(hook?.config.url ?? '')
  const [contentType, setContentType] = useState<'json' | 'form'>(hook?.config.content_type === 'form' ? 'form' : 'json')
  const [secret, setSecret] = useState('')
  const [events, setEvents] = useState<string[]>(hook?.events ?? ['push'])
  const [branchFilter, setBranchFilter] = useState(hook?.branch_filter ?? '')
  const [active, setActive] = useState(hook?.active ?? true)
  const toggle = (e: string) => setEvents((cur) => (cur.includes(e) ? cur.filter((x) => x !== e) : [...cur, e]))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    // An edit with the secret left blank keeps the current one.
    onSubmit({ url, contentType, secret: hook && secret === '' ? undefined : secret, events, branchFilter, active })
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{title}</h2>
      <form onSubmit={submit} className="webhook-form">
        <Field label={t('form.url')}>
          <Input id={`${id}-url`} type="url" required value={url} maxLength={2048} placeholder="https://example.org/hook" onChange={(e) => setURL(e.target.value)} />
        </Field>
        <Field label={t('form.contentType')}>
          <Select id={`${id}-ct`} value={contentType} onChange={(e) => setContentType(e.target.value === 'form' ? 'form' : 'json')}>
            <option value="json">application/json</option>
            <option value="form">application/x-www-form-urlencoded</option>
          </Select>
        </Field>
        <Field label={t('form.secret')} hint={t('form.secretHelp')}>
          <Input
            id={`${id}-secret`}
            type="password"
            autoComplete="new-password"
            value={secret}
            maxLength={1024}
            placeholder={hook ? t('form.secretKeep') : ''}
            onChange={(e) => setSecret(e.target.value)}
          />
        </Field>
        <fieldset className="field webhook-events">
          <legend>{t('form.events')}</legend>
          {HOOK_EVENTS.map((e) => (
            <label key={e} className="checkbox">
              <Input type="checkbox" checked={events.includes(e)} onChange={() => toggle(e)} /> {t(`events.${e}`)}
            </label>
          ))}
        </fieldset>
        <Field label={t('form.branchFilter')} hint={t('form.branchFilterHelp')}>
          <Input id={`${id}-bf`} value={branchFilter} maxLength={255} placeholder="*" onChange={(e) => setBranchFilter(e.target.value)} />
        </Field>
        <label className="checkbox">
          <Input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> {t('form.active')}
        </label>
        {error && (
          <p className="alert-error" role="alert">
            {errorText(error)}
          </p>
        )}
        <div className="form-actions">
          <Button type="submit" disabled={pending || url.trim() === '' || events.length === 0}>
            {hook ? t('form.save') : t('form.create')}
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            {t('form.cancel')}
          </Button>
        </div>
      </form>
    </Card>
  )
}
