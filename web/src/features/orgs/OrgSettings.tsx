import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { orgHooks, WebhooksPanel } from '@/features/webhooks'
import { nav } from '@/lib/forge/nav'
import { errorText } from '@/lib/http'
import { type Org, useDeleteOrg, useEditOrg } from './api'

/** An owner's settings of an organization: its profile, its webhooks, and deleting it once it owns no repository. */
export function OrgSettings({ org }: { org: Org }) {
  return (
    <div className="stack">
      <OrgProfile org={org} />
      <OrgWebhooks org={org} />
      <DeleteOrg org={org} />
    </div>
  )
}

/** The organization's webhooks, which fire for every repository it owns (the webhooks feature's panel). */
function OrgWebhooks({ org }: { org: Org }) {
  const { t } = useTranslation('webhooks')
  return <WebhooksPanel scope={orgHooks(org.username)} intro={t('orgIntro')} embedded />
}

function OrgProfile({ org }: { org: Org }) {
  const { t } = useTranslation('orgs')
  const id = useId()
  const [fields, setFields] = useState({ full_name: org.full_name, description: org.description, website: org.website, location: org.location })
  const save = useEditOrg(org.username)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(fields)
  }
  const field = (key: keyof typeof fields, max: number) => (
    <Field label={t(`settings.${key}`)}>
      <Input id={`${id}-${key}`} value={fields[key]} maxLength={max} onChange={(e) => setFields({ ...fields, [key]: e.target.value })} />
    </Field>
  )
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('settings.title')}</h2>
      <form onSubmit={submit} aria-labelledby={`${id}-h`}>
        {field('full_name', 100)}
        {field('description', 255)}
        {field('website', 255)}
        {field('location', 50)}
        {save.isError && (
          <p className="alert-error" role="alert">
            {errorText(save.error)}
          </p>
        )}
        {save.isSuccess && <p role="status">{t('settings.saved')}</p>}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('settings.saving') : t('settings.save')}
        </Button>
      </form>
    </Card>
  )
}

function DeleteOrg({ org }: { org: Org }) {
  const { t } = useTranslation('orgs')
  const id = useId()
  const [confirm, setConfirm] = useState('')
  const del = useDeleteOrg(org.username, () => nav.go('/groups'))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (confirm === org.username) del.mutate()
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('settings.deleteTitle')}</h2>
      <p className="muted">{t('settings.deleteHelp')}</p>
      <form onSubmit={submit} className="org-inline-form">
        <Field label={t('settings.deleteConfirm', { name: org.username })}>
          <Input id={`${id}-c`} value={confirm} autoComplete="off" onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        <Button type="submit" variant="danger" disabled={del.isPending || confirm !== org.username}>
          {t('settings.delete')}
        </Button>
      </form>
      {del.isError && (
        <p className="alert-error" role="alert">
          {errorText(del.error)}
        </p>
      )}
    </Card>
  )
}
