import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Dialog } from '@/components/Dialog'
import { PreloadLink } from '@/components/PreloadLink'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { ApiError, errorText } from '@/lib/http'
import { LISTING_EVENTS, type ListingInput, usePublish } from './api'
import { type ListingErrors, MAX_DESCRIPTION, MAX_NAME, MAX_URL, validateListing } from './validate'

/** "Publish a listing": name, description, events, URL template and homepage, checked as the chain will before sending. */
export function PublishDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('marketplace')
  const id = useId()
  const publish = usePublish()
  const [input, setInput] = useState<ListingInput>({ name: '', description: '', events: ['push'], url_template: '', homepage: '' })
  const [errors, setErrors] = useState<ListingErrors>({})
  const set = <K extends keyof ListingInput>(k: K, v: ListingInput[K]) => setInput((cur) => ({ ...cur, [k]: v }))
  const toggle = (e: string) => set('events', input.events.includes(e) ? input.events.filter((x) => x !== e) : [...input.events, e])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const found = validateListing(input)
    setErrors(found)
    if (Object.keys(found).length === 0) publish.mutate(input)
  }
  // The server names the field it refused; show its message there.
  const serverField = publish.error instanceof ApiError ? publish.error.field : undefined
  const fieldError = (k: keyof ListingInput) => {
    const key = errors[k]
    if (key) return t(`form.errors.${key}`)
    return serverField === k && publish.error ? errorText(publish.error) : undefined
  }
  const describe = (k: keyof ListingInput) => (fieldError(k) ? `${id}-${k}-error` : undefined)
  const errorLine = (k: keyof ListingInput) => {
    const msg = fieldError(k)
    return msg ? (
      <p id={`${id}-${k}-error`} className="field-error" role="alert">
        {msg}
      </p>
    ) : null
  }
  if (publish.data) {
    return (
      <Dialog title={t('form.title')} closeLabel={t('form.close')} onClose={onClose}>
        <div role="status">
          <p>{t('form.done', { name: publish.data.name })}</p>
          <p>
            <PreloadLink to={`/marketplace/${publish.data.id}`}>{t('form.view')}</PreloadLink>
          </p>
          <Button onClick={onClose}>{t('form.close')}</Button>
        </div>
      </Dialog>
    )
  }
  return (
    <Dialog title={t('form.title')} description={t('form.description')} closeLabel={t('form.close')} onClose={onClose}>
      <form onSubmit={submit} noValidate className="marketplace-form">
        <Field label={t('form.name')} error={fieldError('name')} announce>
          <Input id={`${id}-name`} value={input.name} maxLength={MAX_NAME} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field label={t('form.descriptionLabel')} error={fieldError('description')} announce>
          <Textarea
            id={`${id}-description`}
            rows={3}
            value={input.description}
            maxLength={MAX_DESCRIPTION}
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>
        <fieldset className="field marketplace-event-choices" aria-describedby={describe('events')}>
          <legend>{t('form.events')}</legend>
          {LISTING_EVENTS.map((e) => (
            <label key={e} className="checkbox">
              <Input type="checkbox" checked={input.events.includes(e)} onChange={() => toggle(e)} /> {t(`events.${e}`)}
            </label>
          ))}
          {errorLine('events')}
        </fieldset>
        <Field label={t('form.urlTemplate')} hint={t('form.urlTemplateHelp')} error={fieldError('url_template')} announce>
          <Input
            id={`${id}-url_template`}
            type="url"
            value={input.url_template}
            maxLength={MAX_URL}
            placeholder="https://ci.example/hooks/{owner}/{repo}"
            onChange={(e) => set('url_template', e.target.value)}
          />
        </Field>
        <Field label={t('form.homepage')} error={fieldError('homepage')} announce>
          <Input
            id={`${id}-homepage`}
            type="url"
            value={input.homepage}
            maxLength={MAX_URL}
            placeholder="https://"
            onChange={(e) => set('homepage', e.target.value)}
          />
        </Field>
        {publish.isError && !serverField && (
          <p className="alert-error" role="alert">
            {t('form.failed', { error: errorText(publish.error) })}
          </p>
        )}
        <div className="form-actions">
          <Button type="submit" disabled={publish.isPending}>
            {publish.isPending ? t('form.pending') : t('form.submit')}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            {t('form.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
