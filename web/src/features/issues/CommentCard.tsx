import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { Markdown } from '@/components/Markdown'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignerBadge } from '@/components/SignerBadge'
import { Tabs } from '@/components/Tabs'
import { useForgeFormat } from '@/lib/forge/format'
import type { User } from '@/lib/forge/api'
import { type Comment, type Issue, type Label, labelColor, labelText, renderMarkdown, useBodyHtml } from './api'
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
export function stateKind(issue: Pick<Issue, 'state' | 'state_reason'>, merged = false): IssueStateKind {
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

/** A Markdown body as the server rendered it; an empty one reads "No description provided". */
export function Body({ body, html }: { body: string; html?: string }) {
  const rendered = useBodyHtml(body, html)
  if (!body.trim()) return <NoDescription />
  if (html !== undefined) return <Markdown html={html} />
  return <QueryState query={rendered}>{(h) => <Markdown html={h} />}</QueryState>
}

export function CommentCard({ comment }: { comment: Comment }) {
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
          <Preview text={value} />
        )}
      </Tabs>
      <span className="muted editor-help">{t('editor.help')}</span>
    </div>
  )
}

function Preview({ text }: { text: string }) {
  const { t } = useTranslation('issues')
  const html = useQuery({ queryKey: ['markdown', text], queryFn: () => renderMarkdown(text), enabled: text.trim() !== '', staleTime: Infinity })
  if (!text.trim()) return <p className="muted preview">{t('editor.nothing')}</p>
  return <div className="preview">{<QueryState query={html}>{(h) => <Markdown html={h} />}</QueryState>}</div>
}
