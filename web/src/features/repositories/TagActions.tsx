import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { Field } from '@/components/Field'
import { type Repository, type Tag } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { useCreateTag, useDeleteTag } from './api'
import './branches.css'

/** Creates a tag at a branch, tag or commit (people who may push); a message makes it annotated. */
export function NewTagForm({ repo }: { repo: Repository }) {
  const { t } = useTranslation('tagwrites')
  const id = useId()
  const [name, setName] = useState('')
  const [target, setTarget] = useState(repo.default_branch)
  const [message, setMessage] = useState('')
  const create = useCreateTag(repo.owner.login, repo.name, () => {
    setName('')
    setMessage('')
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (name.trim()) create.mutate({ tag_name: name.trim(), target: target.trim(), message })
  }
  return (
    <Card as="section" aria-label={t('create.heading')}>
      <form onSubmit={submit} className="branch-form">
        <Field label={t('create.name')}>
          <Input id={`${id}-n`} value={name} maxLength={255} autoComplete="off" onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('create.target')}>
          <Input id={`${id}-t`} value={target} maxLength={255} autoComplete="off" onChange={(e) => setTarget(e.target.value)} />
        </Field>
        <Field label={t('create.message')} hint={t('create.messageHelp')}>
          <Textarea id={`${id}-m`} value={message} rows={2} onChange={(e) => setMessage(e.target.value)} />
        </Field>
        <Button type="submit" disabled={!name.trim() || create.isPending}>
          {create.isPending ? t('create.creating') : t('create.submit')}
        </Button>
      </form>
      {create.isError && (
        <p className="alert-error" role="alert">
          {errorText(create.error)}
        </p>
      )}
    </Card>
  )
}

/** Delete, with confirmation, for one tag. */
export function TagRowActions({ repo, tag }: { repo: Repository; tag: Tag }) {
  const { t } = useTranslation('tagwrites')
  const [confirming, setConfirming] = useState(false)
  const del = useDeleteTag(repo.owner.login, repo.name, tag.name, () => setConfirming(false))
  return (
    <div className="branch-actions">
      {!confirming ? (
        <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
          {t('delete.open')}
        </Button>
      ) : (
        <span className="branch-inline" role="group" aria-label={t('delete.confirm', { tag: tag.name })}>
          <span>{t('delete.confirm', { tag: tag.name })}</span>
          <Button size="sm" variant="danger" disabled={del.isPending} onClick={() => del.mutate()}>
            {t('delete.submit')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            {t('cancel')}
          </Button>
        </span>
      )}
      {del.isError && (
        <p className="alert-error" role="alert">
          {errorText(del.error)}
        </p>
      )}
    </div>
  )
}
