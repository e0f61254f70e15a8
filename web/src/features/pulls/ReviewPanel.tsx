import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { SignerBadge } from '@/components/SignerBadge'
import { Body, UserLink } from '@/features/issues'
import type { Repository } from '@/lib/forge/api'
import { DiffSnippet, type LineAnchor } from '@/components/DiffView'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { Field } from '@/components/Field'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { type DraftComment, type PullRequest, type PullReview, REVIEW_EVENTS, type ReviewComment, type ReviewEvent, useDeletePendingReview, useSubmitReview } from './api'

/** The comments under one diff line: submitted ones, pending drafts, and the open editor. */
export function LineComments({ comments, drafts, editing, onSave, onCancel, onDiscard }: {
  comments: ReviewComment[]
  drafts: DraftComment[]
  editing: LineAnchor | null
  onSave: (body: string) => void
  onCancel: () => void
  onDiscard: (d: DraftComment) => void
}) {
  const { t } = useTranslation('pulls')
  const fmt = useForgeFormat()
  return (
    <div className="line-comments stack">
      {comments.map((c) => (
        <div key={c.id} className="line-comment">
          <p className="muted">
            <strong>
              <UserLink user={c.user} />
            </strong>{' '}
            <time dateTime={c.created_at}>{fmt.ago(c.created_at)}</time>
          </p>
          <Body body={c.body} html={c.body_html} />
        </div>
      ))}
      {drafts.map((d, i) => (
        <div key={i} className="line-comment draft">
          <p className="muted">
            <span className="badge">{t('review.pending')}</span>
          </p>
          <p className="draft-body">{d.body}</p>
          <Button size="sm" variant="ghost" onClick={() => onDiscard(d)}>
            {t('review.discard')}
          </Button>
        </div>
      ))}
      {editing && <DraftEditor anchor={editing} onSave={onSave} onCancel={onCancel} />}
    </div>
  )
}

function DraftEditor({ anchor, onSave, onCancel }: { anchor: LineAnchor; onSave: (body: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('pulls')
  const id = useId()
  const [body, setBody] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (body.trim()) onSave(body)
  }
  return (
    <form onSubmit={submit} className="draft-editor">
      <Field label={t('review.lineComment', { path: anchor.path, line: anchor.line })} labelHidden>
        <Textarea id={id} className="input" rows={3} value={body} autoFocus onChange={(e) => setBody(e.target.value)} />
      </Field>
      <div className="button-row">
        <Button type="submit" size="sm" disabled={!body.trim()}>
          {t('review.addToReview')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          {t('review.cancel')}
        </Button>
      </div>
    </form>
  )
}

/**
 * Finishes a review, in a popover under a "Review changes" button: its
 * verdict (comment, approve, request changes), a summary, and the pending
 * line comments, sent as one POST .../reviews; or keeps them as the user's
 * pending review (only they see it) to submit or discard later. Opening it
 * moves focus to the summary; Escape, a click outside or a submitted review
 * closes it, and focus goes back to the button. Closed, it keeps what was
 * typed.
 */
export function ReviewPanel({ repo, pr, drafts, pending, onSubmitted, isAuthor }: {
  repo: Repository
  pr: PullRequest
  drafts: DraftComment[]
  pending?: PullReview
  onSubmitted: () => void
  isAuthor: boolean
}) {
  const { t } = useTranslation('pulls')
  const id = useId()
  const [event, setEvent] = useState<ReviewEvent>('COMMENT')
  const [body, setBody] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const popover = useRef<HTMLDivElement>(null)
  const close = () => {
    setOpen(false)
    button.current?.focus()
  }
  useEffect(() => {
    if (!open) return
    popover.current?.querySelector<HTMLElement>('textarea')?.focus()
    const outside = (e: PointerEvent) => {
      const at = e.target as Node
      if (!popover.current?.contains(at) && !button.current?.contains(at)) setOpen(false)
    }
    document.addEventListener('pointerdown', outside)
    return () => document.removeEventListener('pointerdown', outside)
  }, [open])
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return
    e.stopPropagation()
    close()
  }
  const [o, r, n] = [repo.owner.login, repo.name, pr.number]
  const submit = useSubmitReview(o, r, n, () => {
    setBody('')
    setEvent('COMMENT')
    close()
    onSubmitted()
  })
  const discard = useDeletePendingReview(o, r, n)
  const check = (as: ReviewEvent | 'PENDING') => {
    if (pending && drafts.length > 0) return t('review.errors.pendingFirst')
    const comments = drafts.length + (pending?.comments_count ?? 0) + (pending?.body.trim() ? 1 : 0)
    if ((as === 'COMMENT' || as === 'PENDING') && !body.trim() && comments === 0) return t('review.errors.empty')
    if (as === 'REQUEST_CHANGES' && !body.trim()) return t('review.errors.reason')
    return null
  }
  const send = (as: ReviewEvent | 'PENDING') => {
    const p = check(as)
    setProblem(p)
    if (!p) submit.mutate({ pendingId: pending?.id, event: as, body, commitId: pr.head.sha, comments: drafts })
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    send(event)
  }
  const failed = submit.error ?? discard.error
  const waiting = drafts.length + (pending?.comments_count ?? 0)
  return (
    <div className="review-changes">
      <Button ref={button} aria-expanded={open} aria-controls={`${id}-p`} onClick={() => (open ? close() : setOpen(true))}>
        {t('review.open')}
        {waiting > 0 && (
          <span className="badge review-count" aria-hidden="true">
            {waiting}
          </span>
        )}{' '}
        <span aria-hidden="true">▾</span>
      </Button>
      <div ref={popover} id={`${id}-p`} role="dialog" aria-labelledby={`${id}-h`} className="card review-panel review-popover" hidden={!open} onKeyDown={onKeyDown}>
        <h2 id={`${id}-h`}>{t('review.title')}</h2>
        <p className="muted" role="status">
          {t('review.pendingCount', { count: waiting })}
        </p>
        {pending && (
          <p className="muted">
            <span className="badge">{t('review.pending')}</span> {t('review.pendingSaved')}
          </p>
        )}
        <form onSubmit={onSubmit}>
          <Field label={t('review.summary')}>
            <Textarea id={`${id}-b`} rows={3} value={body} onChange={(e) => setBody(e.target.value)} />
          </Field>
          <fieldset className="field review-events">
            <legend>{t('review.verdict')}</legend>
            {REVIEW_EVENTS.map((ev) => (
              <label key={ev}>
                <Input type="radio" name={`${id}-ev`} value={ev} checked={event === ev} disabled={isAuthor && ev !== 'COMMENT'} onChange={() => setEvent(ev)} /> {t(`review.events.${ev}`)}
              </label>
            ))}
            {isAuthor && <span className="muted">{t('review.ownPull')}</span>}
          </fieldset>
          {problem && (
            <p className="field-error" role="alert">
              {problem}
            </p>
          )}
          {failed && (
            <p className="alert-error" role="alert">
              {errorText(failed)}
            </p>
          )}
          <div className="button-row">
            <Button type="submit" disabled={submit.isPending}>
              {t('review.submit')}
            </Button>
            {pending ? (
              <Button variant="ghost" disabled={discard.isPending} onClick={() => discard.mutate(pending.id)}>
                {t('review.discardPending')}
              </Button>
            ) : (
              <Button variant="secondary" disabled={submit.isPending} onClick={() => send('PENDING')}>
                {t('review.savePending')}
              </Button>
            )}
          </div>
        </form>
      </div>
    </div>
  )
}

const VERDICT: Record<string, string> = { APPROVED: 'approved', REQUEST_CHANGES: 'changesRequested', COMMENT: 'commented' }

/** A submitted review in the conversation: who, the verdict, the summary, and its line comments. */
export function ReviewCard({ review, comments, action }: { review: PullReview; comments: ReviewComment[]; action?: ReactNode }) {
  const { t } = useTranslation('pulls')
  const { t: tr } = useTranslation('reviewers')
  const fmt = useForgeFormat()
  const verdict = VERDICT[review.state] ?? 'commented'
  return (
    <Card as="article" className={`comment review review-${verdict}`} aria-label={t(`review.verdicts.${verdict}`, { user: review.user.login })}>
      <header className="comment-header muted">
        <strong>
          <UserLink user={review.user} />
        </strong>{' '}
        <span className={`badge verdict-${verdict}`}>{t(`review.badges.${verdict}`)}</span>{' '}
        <time dateTime={review.submitted_at}>{fmt.ago(review.submitted_at)}</time>{' '}
        <SignerBadge signer={review.signer} delegation={review.delegation} />
        {review.dismissed && (
          <>
            {' '}
            <span className="badge verdict-dismissed">{tr('dismissed')}</span>
          </>
        )}
      </header>
      {review.body.trim() && <Body body={review.body} html={review.body_html} />}
      {comments.length > 0 && (
        <ul className="plain-list review-comments">
          {comments.map((c) => (
            <li key={c.id}>
              <ReviewCommentItem comment={c} />
            </li>
          ))}
        </ul>
      )}
      {action}
    </Card>
  )
}

/**
 * A line comment of a review, under the diff lines that end at its line. One the head has outdated (its line changed
 * since) is folded, as on GitHub, and says so; opening it shows the comment.
 */
function ReviewCommentItem({ comment: c }: { comment: ReviewComment }) {
  const { t } = useTranslation('pulls')
  const where = (
    <span className="mono">
      {c.path}:{c.position > 0 ? c.position : c.original_position}
    </span>
  )
  const context = c.diff_hunk ? <DiffSnippet path={c.path} hunk={c.diff_hunk} /> : null
  if (!c.outdated) {
    return (
      <>
        <p className="muted">{where}</p>
        {context}
        <Body body={c.body} html={c.body_html} />
      </>
    )
  }
  return (
    <details className="review-comment-outdated">
      <summary className="muted">
        {where} <span className="badge badge-outdated">{t('review.outdated')}</span> <span className="sr-only">{t('review.outdatedHint')}</span>
      </summary>
      {context}
      <Body body={c.body} html={c.body_html} />
    </details>
  )
}
