import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { repoHref, type Repository } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { errorText } from '@/lib/http'
import { useTransferRepo } from './api'

/**
 * A repository's owner moves it to another user or to an organization.
 * Into an organization they may create repositories in it moves at once
 * and the page follows it; to anyone else it is an offer (Gitea's pending
 * transfer): the repository stays, and the page says it waits.
 */
export function TransferRepository({ repo }: { repo: Repository }) {
  const { t } = useTranslation('orgs')
  const id = useId()
  const [newOwner, setNewOwner] = useState('')
  const transfer = useTransferRepo(repo.owner.login, repo.name, (after, to) => nav.go(after ? repoHref.home(after.owner.login, after.name) : repoHref.home(to, repo.name)))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (newOwner.trim()) transfer.mutate(newOwner.trim())
  }
  const offered = transfer.data?.repo_transfer ?? repo.repo_transfer
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('transfer.title')}</h2>
      <p className="muted">{t('transfer.help')}</p>
      {offered ? (
        <p role="status">{t(transfer.data?.repo_transfer ? 'transfer.offered' : 'transfer.pendingTo', { owner: offered.recipient.login })}</p>
      ) : (
        <TransferForm id={id} newOwner={newOwner} setNewOwner={setNewOwner} submit={submit} pending={transfer.isPending} />
      )}
      {transfer.isError && (
        <p className="alert-error" role="alert">
          {errorText(transfer.error)}
        </p>
      )}
    </Card>
  )
}

interface TransferFormProps {
  id: string
  newOwner: string
  setNewOwner: (v: string) => void
  submit: (e: FormEvent) => void
  pending: boolean
}

function TransferForm({ id, newOwner, setNewOwner, submit, pending }: TransferFormProps) {
  const { t } = useTranslation('orgs')
  return (
    <form onSubmit={submit} className="org-inline-form">
      <Field label={t('transfer.newOwner')}>
        <Input id={`${id}-o`} value={newOwner} autoComplete="off" onChange={(e) => setNewOwner(e.target.value)} />
      </Field>
      <Button type="submit" variant="danger" disabled={pending || !newOwner.trim()}>
        {pending ? t('transfer.submitting') : t('transfer.submit')}
      </Button>
    </form>
  )
}
