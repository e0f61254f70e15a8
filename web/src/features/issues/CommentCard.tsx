import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { Markdown, type TaskToggle } from '@/components/Markdown'
import { MarkdownPreview } from '@/components/MarkdownPreview'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignerBadge } from '@/components/SignerBadge'
import { Tabs } from '@/components/Tabs'
import { useForgeFormat } from '@/lib/forge/format'
import type { User } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { setTask } from '@/lib/taskList'
import { type CommentParts, type Issue, type Label, labelColor, labelText, useBodyHtml } from './api'
import { NoDescription } from '@/components/EmptyStates'
import { Textarea } from '@/components/Textarea'
import './issues.css'

export function UserLink({ user }: { user: User | null | undefined }) {
  if (!user?.login) return <span className="muted">—</span>
  return <PreloadLink to={`/user/${encodeURIComponent(user.login)}`}>{user.login}</PreloadLink>
}

export function LabelBadge({ label }: { label: Label }) {
  return (
    <span className="badge label-badge" style={{ background: labelColor(label.color), color: labelText(label.color), borderColor: 'transparent' }} title={label.description || undefined}>
      {label.name}
    </span>
  )
}

export type IssueStateKind = 'open' | 'completed' | 'notPlanned' | 'closed' | 'merged'

/** Which badge an issue or pull request wears. */
export function stateKind(issue: Pick<Issue, 'state'> & Partial<Pick<Issue, 'state_reason'>>, merged = false): IssueStateKind {
  if (merged) return 'merged'
  if (issue.state === 'open') return 'open'
  if (issue.state_reason === 'completed') return 'completed'
  if (issue.state_reason === 'not_planned') return 'notPlanned'
  return 'closed'
}

export function StateBadge({ kind }: { kind: IssueStateKind }) {
  const { t } = useTranslation('issues')
  return <span className={`badge state-badge state-${kind}`}>{t(`state.${kind}`)}</span>
}

/**
 * A Markdown body as the server rendered it; an empty one reads "No
 * description provided". With save (for those who may edit it), its task
 * list checkboxes can be ticked: each tick saves the body with that task's
 * marker changed.
 */
export function Body({ body, html, save }: { body: string; html?: string; save?: (body: string) => Promise<unknown> }) {
  const rendered = useBodyHtml(body, html)
  const tasks = useTaskToggle(body, save)
  if (!body.trim()) return <NoDescription />
  const show = (h: string) => (
    <>
      <Markdown html={h} onTaskToggle={tasks.toggle} />
      {tasks.error !== null && (
        <p className="alert-error" role="alert">
          {tasks.error}
        </p>
      )}
    </>
  )
  if (html !== undefined) return show(html)
  return <QueryState query={rendered}>{show}</QueryState>
}

/**
 * Ticking a task of body: the n-th checkbox sets the n-th task marker of the
 * source and saves it. The source saved last is the base of the next tick, so
 * quick ticks do not undo each other before the saved body comes back.
 */
function useTaskToggle(body: string, save: ((body: string) => Promise<unknown>) | undefined): { toggle?: TaskToggle; error: string | null } {
  const { t } = useTranslation('issues')
  const source = useRef(body)
  useEffect(() => {
    source.current = body
  }, [body])
  const [error, setError] = useState<string | null>(null)
  if (!save) return { error: null }
  const toggle: TaskToggle = async (index, checked) => {
    setError(null)
    const next = setTask(source.current, index, checked)
    if (next === null) {
      setError(t('tasks.changed'))
      throw new Error('task not found')
    }
    try {
      await save(next)
      source.current = next
    } catch (e) {
      setError(t('tasks.saveFailed', { message: errorText(e) }))
      throw e
    }
  }
  return { toggle, error }
}

export function CommentCard({ comment }: { comment: CommentParts }) {
  const fmt = useForgeFormat()
  return (
    <Card as="article" className="comment" aria-label={comment.user?.login}>
      <header className="comment-header muted">
        <strong>
          <UserLink user={comment.user} />
        </strong>{' '}
        <time dateTime={comment.created_at} title={comment.created_at}>
          {fmt.ago(comment.created_at)}
        </time>
        <SignerBadge signer={comment.signer} delegation={comment.delegation} />
      </header>
      <Body body={comment.body} html={comment.body_html} />
    </Card>
  )
}

/**
 * A Markdown textarea with a Preview tab; the preview is rendered by the
 * server (POST /api/v1/markdown) with the same sanitizer as saved bodies.
 */
export function MarkdownEditor({
  label,
  value,
  onChange,
  rows = 6,
  required = false,
  maxLength = 65536,
  autoFocus = false,
}: {
  label: string
  value: string
  onChange: (v: string) => void
  rows?: number
  required?: boolean
  maxLength?: number
  /** Focuses the textarea when the editor opens (editing an existing body). */
  autoFocus?: boolean
}) {
  const { t } = useTranslation('issues')
  const id = useId()
  const [tab, setTab] = useState<'write' | 'preview'>('write')
  return (
    <div className="field markdown-editor">
      <span className="editor-label" id={`${id}-l`}>
        {label}
      </span>
      <Tabs
        label={label}
        tabs={[
          { id: 'write', label: t('editor.write') },
          { id: 'preview', label: t('editor.preview') },
        ]}
        selected={tab}
        onSelect={setTab}
      >
        {tab === 'write' ? (
          <Textarea aria-labelledby={`${id}-l`} value={value} rows={rows} required={required} maxLength={maxLength} autoFocus={autoFocus} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <MarkdownPreview text={value} />
        )}
      </Tabs>
      <span className="muted editor-help">{t('editor.help')}</span>
    </div>
  )
}
