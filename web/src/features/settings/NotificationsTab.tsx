import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { type NotificationPrefs, useNotificationPrefs, useSaveNotificationPrefs } from './api'
import { ErrorAlert } from './Section'

const KINDS = ['mentions', 'reviews', 'governance', 'rewards'] as const

export function NotificationsTab() {
  const query = useNotificationPrefs()
  return <QueryState query={query}>{(prefs) => <PreferencesForm initial={prefs} />}</QueryState>
}

function PreferencesForm({ initial }: { initial: NotificationPrefs }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const [prefs, setPrefs] = useState(initial)
  const [saved, setSaved] = useState(false)
  const save = useSaveNotificationPrefs(() => setSaved(true))
  const toggle = (key: keyof NotificationPrefs, on: boolean) => {
    setSaved(false)
    setPrefs((p) => ({ ...p, [key]: on }))
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(prefs)
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('notifications.title')}</h2>
      <p className="muted">{t('notifications.description')}</p>
      <fieldset className="settings-checks">
        <legend>{t('notifications.legend')}</legend>
        {KINDS.map((kind) => (
          <label key={kind}>
            <Input type="checkbox" name={kind} checked={prefs[kind]} onChange={(e) => toggle(kind, e.target.checked)} />
            {t(`notifications.kinds.${kind}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="settings-checks">
        <legend>{t('notifications.delivery')}</legend>
        <label>
          <Input type="checkbox" name="email" checked={prefs.email} onChange={(e) => toggle('email', e.target.checked)} />
          {t('notifications.email')}
        </label>
        <span className="muted">{t('notifications.emailHint')}</span>
      </fieldset>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? t('saving') : t('notifications.save')}
      </Button>
      <div role="status" className="settings-note">
        {saved && <span className="alert-success">{t('notifications.saved')}</span>}
      </div>
      {save.isError && <ErrorAlert error={save.error} />}
    </form>
  )
}
