import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { repoHref, type Repository } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { errorText } from '@/lib/http'
import { transferRepo } from './api'

/** A repository's owner moves it to another user or to an organization they own. */
export function TransferRepository({ repo }: { repo: Repository }) {
  const { t } = useTranslation('orgs')
  const id = useId()
  const [newOwner, setNewOwner] = useState('')
  const transfer = useMutation({
    mutationFn: () => transferRepo(repo.owner.login, repo.name, newOwner.trim()),
    // Signed by the user's wallet, there is no answer to read the new home from: it is the new owner's.
    onSuccess: (moved) => nav.go(moved ? repoHref.home(moved.owner.login, moved.name) : repoHref.home(newOwner.trim(), repo.name)),
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (newOwner.trim()) transfer.mutate()
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('transfer.title')}</h2>
      <p className="muted">{t('transfer.help')}</p>
      <form onSubmit={submit} className="org-inline-form">
        <div className="field">
          <label htmlFor={`${id}-o`}>{t('transfer.newOwner')}</label>
          <input id={`${id}-o`} value={newOwner} autoComplete="off" onChange={(e) => setNewOwner(e.target.value)} />
        </div>
        <Button type="submit" variant="danger" disabled={transfer.isPending || !newOwner.trim()}>
          {transfer.isPending ? t('transfer.submitting') : t('transfer.submit')}
        </Button>
      </form>
      {transfer.isError && (
        <p className="alert-error" role="alert">
          {errorText(transfer.error)}
        </p>
      )}
    </Card>
  )
}
