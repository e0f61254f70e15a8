import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { canMaintain, type Repository, repoHref } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type IssueParts, useAddComment, useChangeIssueState, useLabels, useSetIssueLabels } from './api'
import { LabelBadge, MarkdownEditor } from './CommentCard'
import './issues.css'

/** The canonical page of an issue or pull request. */
export function issueHref(owner: string, repo: string, number: number, pull: boolean): string {
  return `${repoHref.section(owner, repo, pull ? 'pulls' : 'issues')}/${number}`
}

/**
 * The comment box, and closing (as completed or not planned) or reopening
 * for the author and maintainers. A comment typed before closing is posted first.
 */
export function IssueActions({ repo, issue, pull = false }: { repo: Repository; issue: IssueParts; pull?: boolean }) {
  const { t } = useTranslation('issues')
  const user = useSignedInUser()
  const [text, setText] = useState('')
  const o = repo.owner.login
  const comment = useAddComment(o, repo.name, issue.number, () => setText(''))
  const changeState = useChangeIssueState(o, repo.name, issue.number, pull, () => setText(''))
  if (!user) return <p className="muted">{t('issue.signInToComment')}</p>
  const mayClose = canMaintain(repo) || user.username.toLowerCase() === issue.user.login.toLowerCase()
  const busy = comment.isPending || changeState.isPending
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (text.trim()) comment.mutate(text)
  }
  const merged = Boolean(issue.pull_request?.merged)
  return (
    <Card as="section" aria-label={t('issue.addComment')}>
      <form onSubmit={submit}>
        <MarkdownEditor label={t('issue.addComment')} value={text} onChange={setText} />
        {(comment.isError || changeState.isError) && (
          <p className="alert-error" role="alert">
            {errorText(comment.error ?? changeState.error)}
          </p>
        )}
        <div className="button-row">
          {mayClose && !merged && issue.state === 'open' && (
            <>
              <Button variant="outline" disabled={busy} onClick={() => changeState.mutate({ state: 'closed', reason: pull ? undefined : 'completed', comment: text })}>
                {pull ? t('issue.closePull') : t('issue.closeCompleted')}
              </Button>
              {!pull && (
                <Button variant="outline" disabled={busy} onClick={() => changeState.mutate({ state: 'closed', reason: 'not_planned', comment: text })}>
                  {t('issue.closeNotPlanned')}
                </Button>
              )}
            </>
          )}
          {mayClose && !merged && issue.state === 'closed' && (
            <Button variant="outline" disabled={busy} onClick={() => changeState.mutate({ state: 'open', comment: text })}>
              {t('issue.reopen')}
            </Button>
          )}
          <Button type="submit" disabled={busy || !text.trim()}>
            {t('issue.comment')}
          </Button>
        </div>
      </form>
    </Card>
  )
}

/** The labels of an issue; those with write access can change them. */
export function IssueLabels({ repo, issue }: { repo: Repository; issue: IssueParts }) {
  const { t } = useTranslation('issues')
  const user = useSignedInUser()
  const o = repo.owner.login
  const [editing, setEditing] = useState(false)
  const [picked, setPicked] = useState<number[]>(issue.labels.map((l) => l.id))
  const all = useLabels(o, repo.name)
  const save = useSetIssueLabels(o, repo.name, issue.number, () => setEditing(false))
  const canEdit = Boolean(user && repo.permissions?.push)
  return (
    <section aria-labelledby="issue-labels" className="issue-side-section">
      <h2 id="issue-labels">{t('labels.title')}</h2>
      {!editing && (issue.labels.length === 0 ? <p className="muted">{t('labels.none')}</p> : (
        <p className="label-list">
          {issue.labels.map((l) => (
            <LabelBadge key={l.id} label={l} />
          ))}
        </p>
      ))}
      {editing && (
        <QueryState query={all}>
          {(labels) =>
            labels.length === 0 ? (
              <p className="muted">{t('labels.noneInRepo')}</p>
            ) : (
              <fieldset className="label-picker">
                <legend className="sr-only">{t('labels.title')}</legend>
                {labels.map((l) => (
                  <label key={l.id}>
                    <Input type="checkbox" checked={picked.includes(l.id)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, l.id] : p.filter((x) => x !== l.id)))} /> <LabelBadge label={l} />
                  </label>
                ))}
              </fieldset>
            )
          }
        </QueryState>
      )}
      {save.isError && (
        <p className="alert-error" role="alert">
          {errorText(save.error)}
        </p>
      )}
      {canEdit &&
        (editing ? (
          <div className="button-row">
            <Button size="sm" disabled={save.isPending} onClick={() => save.mutate(picked)}>
              {t('labels.save')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              {t('labels.cancel')}
            </Button>
          </div>
        ) : (
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            {t('labels.edit')}
          </Button>
        ))}
    </section>
  )
}
