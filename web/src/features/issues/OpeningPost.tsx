// Editing an issue or pull request in place: its title, its opening post and
// its assignees. The screens pass save, which PATCHes the issue or the pull
// request and updates the cache; these components own only the editor state.
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { type Signed, SignerBadge } from '@/components/SignerBadge'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import type { Repository, User } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { HiddenContent } from '@/features/moderation'
import { type IssueEdit, useEditIssue } from './api'
import { Body, MarkdownEditor, UserLink } from './CommentCard'

export type SaveIssue = (patch: IssueEdit) => Promise<unknown>

/** The server's limits (forge.MaxTitle, forge.MaxBody). */
const MAX_TITLE = 255
const MAX_BODY = 65536

/**
 * What the viewer may change, as the server decides it: the author or a
 * writer edits the title and body, only a writer the assignees.
 */
export function useEditRights(repo: Repository, author: User | null | undefined): { text: boolean; assignees: boolean } {
  const user = useSignedInUser()
  const push = Boolean(user && repo.permissions?.push)
  const isAuthor = Boolean(user && author?.login && user.username.toLowerCase() === author.login.toLowerCase())
  return { text: push || isAuthor, assignees: push }
}

/**
 * Open/closed state of an in-place editor. Closing puts the focus back on
 * the button that opened it, which is only in the page again after the render.
 */
function useEditor() {
  const [editing, setEditing] = useState(false)
  const buttonId = useId()
  const refocus = useRef(false)
  useEffect(() => {
    if (editing || !refocus.current) return
    refocus.current = false
    document.getElementById(buttonId)?.focus()
  }, [editing, buttonId])
  return {
    editing,
    buttonId,
    open: () => setEditing(true),
    close: () => {
      refocus.current = true
      setEditing(false)
    },
  }
}

/** Enter and Escape in a single-line editor; an IME composing text keeps its Enter. */
function editorKeys(onSave: () => void, onCancel: () => void) {
  return (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return
    if (e.key === 'Enter') {
      e.preventDefault()
      onSave()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      onCancel()
    }
  }
}

function SaveError({ error }: { error: unknown }) {
  return (
    <p className="alert-error" role="alert">
      {errorText(error)}
    </p>
  )
}

/** The page's h1, with an Edit button for those who may retitle it. */
export function EditableTitle({ title, number, canEdit, save }: { title: string; number: number; canEdit: boolean; save: SaveIssue }) {
  const { t } = useTranslation('issues')
  const id = useId()
  const editor = useEditor()
  const [draft, setDraft] = useState(title)
  const [missing, setMissing] = useState(false)
  const mutation = useEditIssue(save, editor.close)
  const open = () => {
    setDraft(title)
    setMissing(false)
    mutation.reset()
    editor.open()
  }
  const cancel = () => {
    mutation.reset()
    editor.close()
  }
  const submit = () => {
    const next = draft.trim()
    if (!next) return setMissing(true)
    if (next === title) return editor.close()
    mutation.mutate({ title: next })
  }
  if (!editor.editing) {
    return (
      <div className="issue-title">
        <h1>
          {title} <span className="muted">#{number}</span>
        </h1>
        {canEdit && (
          <Button id={editor.buttonId} size="sm" variant="outline" aria-label={t('edit.editTitle')} onClick={open}>
            {t('edit.edit')}
          </Button>
        )}
      </div>
    )
  }
  return (
    <form
      className="issue-title-editor"
      aria-label={t('edit.editTitle')}
      noValidate
      onSubmit={(e: FormEvent) => {
        e.preventDefault()
        submit()
      }}
    >
      <Field label={t('edit.titleLabel')} error={missing ? t('edit.titleRequired') : undefined} announce>
        <Input
          id={`${id}-t`}
          value={draft}
          maxLength={MAX_TITLE}
          autoFocus
          onChange={(e) => {
            setDraft(e.target.value)
            setMissing(false)
          }}
          onKeyDown={editorKeys(submit, cancel)}
        />
      </Field>
      {mutation.isError && <SaveError error={mutation.error} />}
      <div className="button-row">
        <Button type="submit" size="sm" disabled={mutation.isPending}>
          {mutation.isPending ? t('edit.saving') : t('edit.saveTitle')}
        </Button>
        <Button size="sm" variant="ghost" onClick={cancel}>
          {t('edit.cancel')}
        </Button>
      </div>
    </form>
  )
}

/** The opening post of an issue or pull request: its author, its body, and an editor for those who may change it. */
export function OpeningPost({
  post,
  label,
  canEdit,
  save,
}: {
  post: { user: User; created_at: string; body: string; body_html?: string; hidden?: boolean; hidden_reason?: string } & Signed
  label: string
  canEdit: boolean
  save: SaveIssue
}) {
  const { t } = useTranslation('issues')
  const fmt = useForgeFormat()
  const editor = useEditor()
  const [draft, setDraft] = useState(post.body)
  const mutation = useEditIssue(save, editor.close)
  const open = () => {
    setDraft(post.body)
    mutation.reset()
    editor.open()
  }
  const cancel = () => {
    mutation.reset()
    editor.close()
  }
  return (
    <Card as="article" className="comment" aria-label={label}>
      <header className="comment-header opening-header muted">
        <span>
          <strong>
            <UserLink user={post.user} />
          </strong>{' '}
          <time dateTime={post.created_at}>{fmt.ago(post.created_at)}</time>
          <SignerBadge signer={post.signer} delegation={post.delegation} />
        </span>
        {canEdit && !editor.editing && (
          <Button id={editor.buttonId} size="sm" variant="ghost" aria-label={t('edit.editBody')} onClick={open}>
            {t('edit.edit')}
          </Button>
        )}
      </header>
      {editor.editing ? (
        <form
          aria-label={t('edit.editBody')}
          onSubmit={(e) => {
            e.preventDefault()
            if (draft === post.body) editor.close()
            else mutation.mutate({ body: draft })
          }}
        >
          <MarkdownEditor label={t('edit.bodyLabel')} value={draft} onChange={setDraft} rows={10} maxLength={MAX_BODY} autoFocus />
          {mutation.isError && <SaveError error={mutation.error} />}
          <div className="button-row">
            <Button type="submit" size="sm" disabled={mutation.isPending}>
              {mutation.isPending ? t('edit.saving') : t('edit.saveBody')}
            </Button>
            <Button size="sm" variant="ghost" onClick={cancel}>
              {t('edit.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <HiddenContent item={post}>
          <Body body={post.body} html={post.body_html} save={canEdit ? (body) => save({ body }) : undefined} />
        </HiddenContent>
      )}
    </Card>
  )
}

/** Usernames from "ada, bob cy": split on commas and spaces, each once. */
export function parseLogins(text: string): string[] {
  const logins: string[] = []
  for (const word of text.split(/[\s,]+/)) {
    const login = word.replace(/^@/, '')
    if (login && !logins.some((l) => l.toLowerCase() === login.toLowerCase())) logins.push(login)
  }
  return logins
}

/** The sidebar's assignees; writers set them as a list of usernames. */
export function Assignees({ assignees, canEdit, save }: { assignees: User[] | null | undefined; canEdit: boolean; save: SaveIssue }) {
  const { t } = useTranslation('issues')
  const id = useId()
  const editor = useEditor()
  const list = assignees ?? []
  const current = list.map((u) => u.login).join(', ')
  const [draft, setDraft] = useState(current)
  const mutation = useEditIssue(save, editor.close)
  const open = () => {
    setDraft(current)
    mutation.reset()
    editor.open()
  }
  const cancel = () => {
    mutation.reset()
    editor.close()
  }
  const submit = () => mutation.mutate({ assignees: parseLogins(draft) })
  return (
    <section aria-labelledby={`${id}-h`} className="issue-side-section">
      <h2 id={`${id}-h`}>{t('assignees.title')}</h2>
      {editor.editing ? (
        <form
          aria-label={t('assignees.edit')}
          onSubmit={(e) => {
            e.preventDefault()
            submit()
          }}
        >
          <Field label={t('assignees.label')} hint={t('assignees.help')}>
            <Input id={`${id}-i`} value={draft} autoFocus autoComplete="off" spellCheck={false} onChange={(e) => setDraft(e.target.value)} onKeyDown={editorKeys(submit, cancel)} />
          </Field>
          {mutation.isError && <SaveError error={mutation.error} />}
          <div className="button-row">
            <Button type="submit" size="sm" disabled={mutation.isPending}>
              {mutation.isPending ? t('edit.saving') : t('assignees.save')}
            </Button>
            <Button size="sm" variant="ghost" onClick={cancel}>
              {t('edit.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <>
          {list.length === 0 ? (
            <p className="muted">{t('assignees.none')}</p>
          ) : (
            <ul className="plain-list assignee-list">
              {list.map((u) => (
                <li key={u.login}>
                  <UserLink user={u} />
                </li>
              ))}
            </ul>
          )}
          {canEdit && (
            <Button id={editor.buttonId} size="sm" variant="outline" onClick={open}>
              {t('assignees.edit')}
            </Button>
          )}
        </>
      )}
    </section>
  )
}
