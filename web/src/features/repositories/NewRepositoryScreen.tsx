import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { SignInNotice } from '@/components/SignInNotice'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { repoHref, repoNameProblem } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { errorText } from '@/lib/http'
import { useCreateRepo } from './api'
import './repositories.css'

/** Creates a repository owned by the signed-in user (a chain transaction for a public one). */
export default function NewRepositoryScreen() {
  const { t } = useTranslation('repositories')
  const user = useSignedInUser()
  useDocumentTitle(t('create.title'))
  return (
    <div className="stack narrow">
      <PageHeader title={t('create.title')} lead={t('create.lead')} />
      {user ? <NewRepositoryForm owner={user.username} /> : <SignInNotice message={t('create.signIn')} />}
    </div>
  )
}

function NewRepositoryForm({ owner }: { owner: string }) {
  const { t } = useTranslation('repositories')
  const id = useId()
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [isPrivate, setPrivate] = useState(false)
  const [autoInit, setAutoInit] = useState(true)
  const [branch, setBranch] = useState('main')
  const [touched, setTouched] = useState(false)
  const problem = repoNameProblem(name.trim())
  const create = useCreateRepo((repo) => nav.go(repoHref.home(repo.owner.login, repo.name)))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (problem) return
    create.mutate({ name: name.trim(), description: description.trim(), private: isPrivate, auto_init: autoInit, default_branch: branch.trim() || 'main' })
  }
  const showProblem = touched && problem
  return (
    <Card as="section">
      <form onSubmit={submit} noValidate aria-label={t('create.title')}>
        <Field
          label={t('create.name')}
          hint={showProblem ? undefined : t('create.nameHelp')}
          error={showProblem ? t(problem) : undefined}
          row="owner-name"
          before={<span className="muted">{owner} /</span>}
        >
          <Input id={`${id}-name`} value={name} maxLength={100} autoComplete="off" required onChange={(e) => setName(e.target.value)} onBlur={() => setTouched(true)} />
        </Field>
        <Field label={t('create.description')}>
          <Input id={`${id}-description`} value={description} maxLength={2048} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <fieldset className="field visibility">
          <legend>{t('create.visibility')}</legend>
          <label>
            <Input type="radio" name={`${id}-vis`} checked={!isPrivate} onChange={() => setPrivate(false)} /> {t('visibility.public')}
            <span className="muted"> — {t('create.publicHelp')}</span>
          </label>
          <label>
            <Input type="radio" name={`${id}-vis`} checked={isPrivate} onChange={() => setPrivate(true)} /> {t('visibility.private')}
            <span className="muted"> — {t('create.privateHelp')}</span>
          </label>
        </fieldset>
        <div className="field checkbox-field">
          <label>
            <Input type="checkbox" checked={autoInit} onChange={(e) => setAutoInit(e.target.checked)} /> {t('create.autoInit')}
          </label>
        </div>
        <Field label={t('create.defaultBranch')}>
          <Input id={`${id}-branch`} value={branch} maxLength={255} onChange={(e) => setBranch(e.target.value)} />
        </Field>
        {create.isError && (
          <p className="alert-error" role="alert">
            {errorText(create.error)}
          </p>
        )}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? t('create.submitting') : t('create.submit')}
        </Button>
      </form>
    </Card>
  )
}
