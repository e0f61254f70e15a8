import { type FormEvent, type ReactElement, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Textarea } from '@/components/Textarea'
import { ApiError, errorText } from '@/lib/http'
import type { CommunityEvent, EventInput } from './api'
import { browserZone, utcToWall, wallToUTC, zoneList } from './time'

/** The server's bounds (internal/chain/forge events). */
export const LIMITS = { title: 255, description: 65536, place: 255, online_url: 2048 } as const

interface Values {
  title: string
  description: string
  start: string
  end: string
  timezone: string
  online_url: string
  place: string
}

type FieldName = 'title' | 'description' | 'start' | 'end' | 'timezone' | 'online_url' | 'place'
type Errors = Partial<Record<FieldName, string>>

function initial(event?: CommunityEvent): Values {
  const timezone = event?.timezone ?? browserZone()
  return {
    title: event?.title ?? '',
    description: event?.description ?? '',
    start: event ? utcToWall(event.starts_at, timezone) : '',
    end: event ? utcToWall(event.ends_at, timezone) : '',
    timezone,
    online_url: event?.online_url ?? '',
    place: event?.place ?? '',
  }
}

/** Checks values as the server would; the keys name messages of the events namespace. */
export function validate(v: Values): { errors: Errors; input?: EventInput } {
  const errors: Errors = {}
  if (!v.title.trim()) errors.title = 'form.errors.titleRequired'
  else if ([...v.title.trim()].length > LIMITS.title) errors.title = 'form.errors.tooLong'
  if (new TextEncoder().encode(v.description).length > LIMITS.description) errors.description = 'form.errors.tooLong'
  const starts = wallToUTC(v.start, v.timezone)
  const ends = wallToUTC(v.end, v.timezone)
  if (!starts) errors.start = 'form.errors.timeRequired'
  if (!ends) errors.end = 'form.errors.timeRequired'
  else if (starts && Date.parse(ends) <= Date.parse(starts)) errors.end = 'form.errors.endBeforeStart'
  const url = v.online_url.trim()
  if (url && !/^https?:\/\/[^\s/]+/i.test(url)) errors.online_url = 'form.errors.url'
  if ([...v.place.trim()].length > LIMITS.place) errors.place = 'form.errors.tooLong'
  if (!url && !v.place.trim()) errors.place = 'form.errors.somewhere'
  if (Object.keys(errors).length > 0 || !starts || !ends) return { errors }
  return {
    errors,
    input: { title: v.title.trim(), description: v.description, starts_at: starts, ends_at: ends, timezone: v.timezone, online_url: url, place: v.place.trim() },
  }
}

/** The server names fields in snake case; the form's start and end are starts_at and ends_at. */
const SERVER_FIELD: Record<string, FieldName> = { starts_at: 'start', ends_at: 'end', title: 'title', description: 'description', timezone: 'timezone', online_url: 'online_url', place: 'place' }

/** Create (no event) or edit an event; onSubmit sends it and resolves with the saved event. */
export function EventForm({
  event,
  pending,
  onSubmit,
  onCancel,
}: {
  event?: CommunityEvent
  pending: boolean
  onSubmit: (input: EventInput) => Promise<CommunityEvent>
  onCancel: () => void
}) {
  const { t } = useTranslation('events')
  const base = useId()
  const [values, setValues] = useState(() => initial(event))
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState('')
  const zones = useMemo(() => zoneList(values.timezone), [values.timezone])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const { errors: found, input } = validate(values)
    setErrors(found)
    setFailure('')
    if (!input) return
    try {
      await onSubmit(input)
    } catch (err) {
      const field = err instanceof ApiError && err.field ? SERVER_FIELD[err.field] : undefined
      if (field) setErrors({ [field]: err instanceof Error ? err.message : '' })
      else setFailure(errorText(err))
    }
  }

  const field = (name: FieldName, input: (props: Record<string, unknown>) => ReactElement<{ id?: string }>, hint?: string) => {
    const id = `${base}-${name}`
    const err = errors[name]
    const props = {
      id,
      name,
      value: values[name],
      onChange: (ev: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: ev.target.value })),
    }
    return (
      <Field label={t(`form.${name}`)} hint={err ? undefined : hint} error={err ? (err.startsWith('form.') ? t(err, { max: LIMITS[name as keyof typeof LIMITS] }) : err) : undefined}>
        {input(props)}
      </Field>
    )
  }

  return (
    <form className="stack event-form" onSubmit={submit} noValidate aria-label={event ? t('form.editTitle') : t('form.newTitle')}>
      {field('title', (p) => <Input type="text" maxLength={LIMITS.title} autoComplete="off" {...p} />)}
      {field('description', (p) => <Textarea rows={6} {...p} />, t('form.descriptionHint'))}
      <div className="event-form-times">
        {field('start', (p) => <Input type="datetime-local" {...p} />)}
        {field('end', (p) => <Input type="datetime-local" {...p} />)}
        {field(
          'timezone',
          (p) => (
            <Select {...p}>
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </Select>
          ),
          t('form.timezoneHint'),
        )}
      </div>
      {field('online_url', (p) => <Input type="url" inputMode="url" maxLength={LIMITS.online_url} placeholder="https://" {...p} />, t('form.whereHint'))}
      {field('place', (p) => <Input type="text" maxLength={LIMITS.place} {...p} />)}
      {failure && (
        <p className="alert-error" role="alert">
          {t('form.failed', { reason: failure })}
        </p>
      )}
      <div className="event-form-actions">
        <Button type="submit" disabled={pending}>
          {pending ? t('form.saving') : event ? t('form.save') : t('form.create')}
        </Button>
        <Button variant="outline" onClick={onCancel}>
          {t('form.cancel')}
        </Button>
      </div>
    </form>
  )
}
