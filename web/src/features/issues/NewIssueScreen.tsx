import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { SignInNotice } from '@/components/SignInNotice'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { type Repository, repoHref } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { RepoPage } from '@/features/repositories'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useCreateIssue, useLabels } from './api'
import { LabelBadge, MarkdownEditor } from './CommentCard'
import './issues.css'

/** Opens an issue: a title, a Markdown body with preview, and labels for those who may set them. */
export default function NewIssueScreen() {
  const { t } = useTranslation('issues')
  const user = useSignedInUser()
  return <RepoPage section="issues">{(repo) => (user ? <NewIssueForm repo={repo} /> : <SignInNotice message={t('new.signIn')} />)}</RepoPage>
}

function NewIssueForm({ repo }: { repo: Repository }) {
  const { t } = useTranslation('issues')
  const o = repo.owner.login
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [picked, setPicked] = useState<number[]>([])
  const [touched, setTouched] = useState(false)
  const canLabel = Boolean(repo.permissions?.push)
  const labels = useLabels(o, repo.name)
  useDocumentTitle(t('new.title', { repo: repo.full_name }))
  const create = useCreateIssue(o, repo.name, (issue) => nav.go(`${repoHref.section(o, repo.name, 'issues')}/${issue.number}`))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (title.trim()) create.mutate({ title: title.trim(), body, labels: canLabel && picked.length ? picked : undefined })
  }
  const missing = touched && !title.trim()
  return (
    <div className="stack">
      <PageHeader title={t('new.heading')} />
      <Card as="section">
        <form onSubmit={submit} noValidate aria-label={t('new.heading')}>
          <Field label={t('new.titleLabel')} error={missing && t('new.titleRequired')}>
            <Input value={title} maxLength={255} onChange={(e) => setTitle(e.target.value)} />
          </Field>
          <MarkdownEditor label={t('new.bodyLabel')} value={body} onChange={setBody} rows={10} />
          {canLabel && (labels.data?.length ?? 0) > 0 && (
            <fieldset className="field label-picker">
              <legend>{t('labels.title')}</legend>
              {labels.data?.map((l) => (
                <label key={l.id}>
                  <Input type="checkbox" checked={picked.includes(l.id)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, l.id] : p.filter((x) => x !== l.id)))} /> <LabelBadge label={l} />
                </label>
              ))}
            </fieldset>
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
    </div>
  )
}
