import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { MarkdownEditor } from '@/features/issues'
import { type Repository, repoHref, useBranches } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { RepoPage } from '@/features/repositories'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useCreatePull } from './api'
import { ComparePreview } from './ComparePreview'
import './pulls.css'

/** Opens a pull request from a branch (or a fork's "owner:branch") into a base branch. */
export default function NewPullScreen() {
  const { t } = useTranslation('pulls')
  const user = useSignedInUser()
  return <RepoPage section="pulls">{(repo) => (user ? <NewPull repo={repo} /> : <SignInNotice message={t('new.signIn')} />)}</RepoPage>
}

function NewPull({ repo }: { repo: Repository }) {
  const { t } = useTranslation('pulls')
  useDocumentTitle(t('new.title', { repo: repo.full_name }))
  const branches = useBranches(repo.owner.login, repo.name)
  return (
    <div className="stack">
      <PageHeader title={t('new.heading')} lead={t('new.lead')} />
      <QueryState query={branches}>{(list) => <NewPullForm repo={repo} branches={list.map((b) => b.name)} />}</QueryState>
    </div>
  )
}

function NewPullForm({ repo, branches }: { repo: Repository; branches: string[] }) {
  const { t } = useTranslation('pulls')
  const id = useId()
  const o = repo.owner.login
  const [baseParam] = useUrlParam('base')
  const [headParam] = useUrlParam('head')
  const [base, setBase] = useState(baseParam || repo.default_branch)
  const [head, setHead] = useState(headParam || branches.find((b) => b !== (baseParam || repo.default_branch)) || '')
  const [fork, setFork] = useState('')
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [touched, setTouched] = useState(false)
  const headRef = fork.trim() || head
  const problem = !headRef ? 'new.errors.noHead' : headRef === base ? 'new.errors.same' : !title.trim() ? 'new.errors.title' : null
  const create = useCreatePull(o, repo.name, (pr) => nav.go(`${repoHref.section(o, repo.name, 'pulls')}/${pr.number}`))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!problem) create.mutate({ head: headRef, base, title: title.trim(), body })
  }
  return (
    <>
      <Card as="section">
        <form onSubmit={submit} noValidate aria-label={t('new.heading')}>
          <div className="branch-pickers">
            <div className="field">
              <label htmlFor={`${id}-base`}>{t('new.base')}</label>
              <Select id={`${id}-base`} value={base} onChange={(e) => setBase(e.target.value)}>
                {branches.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </Select>
            </div>
            <span aria-hidden="true" className="branch-arrow">
              ←
            </span>
            <div className="field">
              <label htmlFor={`${id}-head`}>{t('new.head')}</label>
              <Select id={`${id}-head`} value={head} disabled={fork.trim() !== ''} onChange={(e) => setHead(e.target.value)}>
                <option value="">{t('new.pickHead')}</option>
                {branches.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-fork`}>{t('new.fork')}</label>
            <Input id={`${id}-fork`} value={fork} placeholder="owner:branch" autoComplete="off" onChange={(e) => setFork(e.target.value)} />
            <span className="muted">{t('new.forkHelp')}</span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-t`}>{t('new.titleLabel')}</label>
            <Input id={`${id}-t`} value={title} maxLength={255} onChange={(e) => setTitle(e.target.value)} />
          </div>
          <MarkdownEditor label={t('new.bodyLabel')} value={body} onChange={setBody} rows={8} />
          {touched && problem && (
            <p className="field-error" role="alert">
              {t(problem)}
            </p>
          )}
          {create.isError && (
            <p className="alert-error" role="alert">
              {errorText(create.error)}
            </p>
          )}
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? t('new.submitting') : t('new.submit')}
          </Button>
        </form>
      </Card>
      {!fork.trim() && <ComparePreview repo={repo} base={base} head={head} />}
    </>
  )
}
