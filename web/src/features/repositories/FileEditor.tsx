import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { NotFoundError } from '@/components/QueryState'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { MarkdownPreview } from '@/components/MarkdownPreview'
import { Tabs } from '@/components/Tabs'
import { Textarea } from '@/components/Textarea'
import { type Repository, repoHref } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { ApiError, errorText } from '@/lib/http'
import { useChangeFiles } from './api'
import { type FileOperation, toBase64 } from './contentsApi'

export type EditMode = 'edit' | 'new' | 'delete'

export interface FileEditorProps {
  repo: Repository
  mode: EditMode
  /** The branch written to (or from which a new branch starts). */
  branch: string
  /** edit and delete: the file; new: the directory the file goes in. */
  path: string
  /** edit and delete: the blob being replaced, and (edit) its text. */
  sha?: string
  initial?: string
}

const BRANCH_NAME = /^(?!\/|.*\/\/|.*\/$|.*\.\.|.*\.lock$)[A-Za-z0-9._/-]+$/

/**
 * Writes one file as a commit: the content (a monospace textarea; none to
 * delete), the commit message, and whether it goes straight onto the
 * branch or onto a new branch with a pull request to open.
 */
export function FileEditor({ repo, mode, branch, path, sha, initial = '' }: FileEditorProps) {
  const { t } = useTranslation('code')
  const { t: tc } = useTranslation()
  const id = useId()
  const owner = repo.owner.login
  const dir = mode === 'new' ? path : ''
  const [name, setName] = useState(mode === 'new' ? '' : path)
  const [content, setContent] = useState(initial)
  const [message, setMessage] = useState('')
  const [target, setTarget] = useState<'direct' | 'branch'>('direct')
  const [newBranch, setNewBranch] = useState('')
  const [touched, setTouched] = useState(false)
  const [tab, setTab] = useState<'write' | 'preview'>('write')
  const filePath = mode === 'new' ? [dir, name.trim()].filter(Boolean).join('/') : path
  const defaultMessage = t(`editor.defaultMessage.${mode}`, { path: filePath || '…' })
  const problem = fieldProblem(mode, name.trim(), target, newBranch.trim())
  const save = useChangeFiles(owner, repo.name, (input) => {
    if (input.new_branch) {
      nav.go(`${repoHref.section(owner, repo.name, 'pulls/new')}?base=${encodeURIComponent(branch)}&head=${encodeURIComponent(input.new_branch)}`)
    } else if (mode === 'delete') {
      nav.go(repoHref.src(owner, repo.name, path.split('/').slice(0, -1).join('/'), branch === repo.default_branch ? undefined : branch))
    } else {
      nav.go(repoHref.src(owner, repo.name, filePath, branch === repo.default_branch ? undefined : branch))
    }
  })
  const textarea = <Textarea id={`${id}-content`} value={content} spellCheck={false} wrap="off" onChange={(e) => setContent(e.target.value)} />
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (problem) return
    const op: FileOperation =
      mode === 'new'
        ? { operation: 'create', path: filePath, content: toBase64(content) }
        : mode === 'edit'
          ? { operation: 'update', path, sha, content: toBase64(content) }
          : { operation: 'delete', path, sha }
    save.mutate({ branch, new_branch: target === 'branch' ? newBranch.trim() : undefined, message: message.trim() || defaultMessage, files: [op] })
  }
  return (
    <Card as="section">
      <form className="file-editor stack" onSubmit={submit} noValidate aria-label={t(`editor.title.${mode}`)}>
        {mode === 'new' && (
          <Field
            label={t('editor.name')}
            error={touched && problem === 'name' ? t('editor.problem.name') : undefined}
            announce
            row="owner-name"
            before={dir && <span className="muted mono">{dir}/</span>}
          >
            <Input id={`${id}-name`} className="input mono" value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} />
          </Field>
        )}
        {mode === 'delete' ? (
          <p role="note">{t('editor.deleteNote', { path })}</p>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-content`}>{t('editor.content')}</label>
            {isMarkdown(filePath) ? (
              <Tabs
                label={filePath}
                tabs={[
                  { id: 'write', label: tc('markdown.write') },
                  { id: 'preview', label: tc('markdown.preview') },
                ]}
                selected={tab}
                onSelect={setTab}
              >
                {tab === 'write' ? textarea : <MarkdownPreview text={content} />}
              </Tabs>
            ) : (
              textarea
            )}
          </div>
        )}
        <fieldset>
          <legend>{t('editor.commit')}</legend>
          <Field label={t('editor.message')}>
            <Input id={`${id}-message`} className="input" value={message} placeholder={defaultMessage} onChange={(e) => setMessage(e.target.value)} />
          </Field>
          <label>
            <Input type="radio" name={`${id}-target`} checked={target === 'direct'} onChange={() => setTarget('direct')} /> {t('editor.direct', { branch })}
          </label>
          <label>
            <Input type="radio" name={`${id}-target`} checked={target === 'branch'} onChange={() => setTarget('branch')} /> {t('editor.newBranch')}
          </label>
          {target === 'branch' && (
            <Field label={t('editor.branchName')} error={touched && problem === 'branch' ? t('editor.problem.branch') : undefined} announce>
              <Input id={`${id}-branch`} className="input mono" value={newBranch} autoComplete="off" onChange={(e) => setNewBranch(e.target.value)} />
            </Field>
          )}
        </fieldset>
        {save.isError && (
          <p className="field-error" role="alert">
            {saveError(save.error, t)}
          </p>
        )}
        <div className="button-row">
          <Button type="submit" variant={mode === 'delete' ? 'danger' : 'primary'} disabled={save.isPending}>
            {save.isPending ? t('editor.saving') : t(`editor.submit.${mode}`)}
          </Button>
          <a className="btn btn-ghost btn-md" href={repoHref.src(owner, repo.name, mode === 'new' ? dir : path, branch === repo.default_branch ? undefined : branch)}>
            {t('editor.cancel')}
          </a>
        </div>
      </form>
    </Card>
  )
}

/** Whether path names a Markdown file, which the editor can preview. */
export function isMarkdown(path: string): boolean {
  return /\.(md|markdown)$/i.test(path)
}

/** Which field stops the commit, if any. */
export function fieldProblem(mode: EditMode, name: string, target: 'direct' | 'branch', newBranch: string): 'name' | 'branch' | null {
  if (mode === 'new' && (name === '' || name.startsWith('/') || name.endsWith('/') || name.split('/').some((s) => s === '' || s === '.' || s === '..'))) {
    return 'name'
  }
  if (target === 'branch' && !BRANCH_NAME.test(newBranch)) return 'branch'
  return null
}

/** A refused commit in words: the conflicts Gitea's API answers get their own. */
function saveError(error: unknown, t: (key: string, opts?: Record<string, unknown>) => string): string {
  if (error instanceof NotFoundError) return t('editor.error.gone')
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'sha_mismatch':
        return t('editor.error.stale')
      case 'file_exists':
        return t('editor.error.exists')
      case 'branch_exists':
        return t('editor.error.branchExists')
      case 'stale_ref':
        return t('editor.error.moved')
    }
    if (error.status === 403) return t('editor.error.denied')
  }
  return t('editor.error.other', { message: errorText(error) })
}
