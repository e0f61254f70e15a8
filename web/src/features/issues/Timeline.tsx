// An issue's or pull request's timeline: its comments (with reactions, and
// edit and delete for their author) and, between them, what happened to it
// (labels, assignees, title, milestone, close and reopen, references).
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignerBadge } from '@/components/SignerBadge'
import { HiddenContent, ReportButton } from '@/features/moderation'
import { canMaintain, type Repository, repoHref } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import type { CommentParts } from './api'
import { Body, LabelBadge, MarkdownEditor, UserLink } from './CommentCard'
import { ReactionBar } from './ReactionBar'
import { asComment, type TimelineEvent, useDeleteComment, useEditComment, useTimeline } from './tracker'

/** The timeline of issue or pull request number. */
export function Timeline({ repo, number }: { repo: Repository; number: number }) {
  const { t } = useTranslation('tracker')
  const timeline = useTimeline(repo.owner.login, repo.name, number)
  return (
    <QueryState query={timeline}>
      {(events) =>
        events.length === 0 ? (
          <p className="muted">{t('timeline.empty')}</p>
        ) : (
          <ol className="timeline plain-list" aria-label={t('timeline.label')}>
            {events.map((e) => (
              <li key={`${e.type}-${e.id}`}>
                <TimelineEntry repo={repo} event={e} />
              </li>
            ))}
          </ol>
        )
      }
    </QueryState>
  )
}

/** One entry of a timeline: a comment card or a line saying what happened. */
export function TimelineEntry({ repo, event }: { repo: Repository; event: TimelineEvent }) {
  return event.type === 'comment' ? <TimelineComment repo={repo} comment={asComment(event)} /> : <TimelineLine repo={repo} event={event} />
}

/** A comment; its author may edit or delete it, and its author or a maintainer tick its tasks. */
function TimelineComment({ repo, comment }: { repo: Repository; comment: CommentParts }) {
  const { t } = useTranslation('tracker')
  const fmt = useForgeFormat()
  const user = useSignedInUser()
  const o = repo.owner.login
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(comment.body)
  const mine = Boolean(user && comment.user?.login && user.username.toLowerCase() === comment.user.login.toLowerCase())
  const save = useEditComment(o, repo.name, comment.id, () => setEditing(false))
  // Ticking a task edits the comment, which its author or a maintainer may do.
  const tick = useEditComment(o, repo.name, comment.id)
  const mayEdit = mine || (Boolean(user) && canMaintain(repo))
  const remove = useDeleteComment(o, repo.name, comment.id)
  const edited = comment.updated_at && comment.updated_at !== comment.created_at
  return (
    <Card as="article" className="comment" aria-label={comment.user?.login} id={`issuecomment-${comment.id}`}>
      <header className="comment-header opening-header muted">
        <span>
          <strong>
            <UserLink user={comment.user} />
          </strong>{' '}
          <time dateTime={comment.created_at} title={fmt.exact(comment.created_at)}>
            {fmt.ago(comment.created_at)}
          </time>
          <SignerBadge signer={comment.signer} delegation={comment.delegation} />
          {edited && <span> · {t('comment.edited')}</span>}
        </span>
        <ReportButton kind="comment" target={`${o}/${repo.name}/comments/${comment.id}`} author={comment.user?.login} />
        {mine && !editing && (
          <span className="button-row">
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                setDraft(comment.body)
                setEditing(true)
              }}
            >
              {t('comment.edit')}
            </Button>
            <Button
              size="sm"
              variant="danger"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(t('comment.confirmDelete'))) remove.mutate()
              }}
            >
              {t('comment.delete')}
            </Button>
          </span>
        )}
      </header>
      {editing ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault()
            save.mutate(draft)
          }}
        >
          <MarkdownEditor label={t('comment.editLabel')} value={draft} onChange={setDraft} required autoFocus />
          <div className="button-row">
            <Button type="submit" size="sm" disabled={save.isPending || !draft.trim()}>
              {t('comment.save')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              {t('comment.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <HiddenContent item={comment}>
          <Body body={comment.body} html={comment.body_html} save={mayEdit ? (body) => tick.mutateAsync(body) : undefined} />
        </HiddenContent>
      )}
      {(save.isError || remove.isError) && (
        <p className="alert-error" role="alert">
          {errorText(save.error ?? remove.error)}
        </p>
      )}
      <ReactionBar owner={o} repo={repo.name} target={{ kind: 'comment', id: comment.id }} />
    </Card>
  )
}

/** One event between the comments. */
function TimelineLine({ repo, event: e }: { repo: Repository; event: TimelineEvent }) {
  const fmt = useForgeFormat()
  return (
    <p className="timeline-event muted">
      <strong>
        <UserLink user={e.user} />
      </strong>{' '}
      <EventText repo={repo} event={e} />{' '}
      <time dateTime={e.created_at} title={fmt.exact(e.created_at)}>
        {fmt.ago(e.created_at)}
      </time>
      <SignerBadge signer={e.signer} delegation={e.delegation} />
    </p>
  )
}

function EventText({ repo, event: e }: { repo: Repository; event: TimelineEvent }) {
  const { t } = useTranslation('tracker')
  const o = repo.owner.login
  const ref = e.ref_issue ? (
    <PreloadLink to={`${repoHref.section(o, repo.name, e.ref_issue.pull_request ? 'pulls' : 'issues')}/${e.ref_issue.number}`}>
      {e.ref_issue.title} #{e.ref_issue.number}
    </PreloadLink>
  ) : null
  const milestone = (m: { id: number; title: string } | null | undefined) =>
    m ? <PreloadLink to={`${repoHref.section(o, repo.name, 'milestones')}/${m.id}`}>{m.title || `#${m.id}`}</PreloadLink> : null
  switch (e.type) {
    case 'close':
      return ref ? (
        <>
          {t('timeline.closedBy')} {ref}
        </>
      ) : (
        <>{t('timeline.closed')}</>
      )
    case 'reopen':
      return <>{t('timeline.reopened')}</>
    case 'merge_pull':
      return <>{t('timeline.merged')}</>
    case 'label':
      return e.label ? (
        <>
          {e.body === '1' ? t('timeline.labelAdded') : t('timeline.labelRemoved')} <LabelBadge label={e.label} />
        </>
      ) : (
        <>{t('timeline.labels')}</>
      )
    case 'assignees':
      return (
        <>
          {e.removed_assignee ? t('timeline.unassigned') : t('timeline.assigned')} <UserLink user={e.assignee} />
        </>
      )
    case 'change_title':
      return <>{t('timeline.renamed', { from: e.old_title, to: e.new_title })}</>
    case 'milestone':
      return e.milestone ? (
        <>
          {t('timeline.milestoneSet')} {milestone(e.milestone)}
        </>
      ) : (
        <>
          {t('timeline.milestoneRemoved')} {milestone(e.old_milestone)}
        </>
      )
    case 'pin':
      return <>{t('timeline.pinned')}</>
    case 'unpin':
      return <>{t('timeline.unpinned')}</>
    case 'issue_ref':
    case 'pull_ref':
    case 'comment_ref':
      return (
        <>
          {t('timeline.referenced')} {ref}
        </>
      )
  }
  return <>{t('timeline.updated')}</>
}
