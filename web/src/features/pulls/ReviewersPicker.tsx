import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { UserLink } from '@/features/issues'
import { canMaintain, type Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { type PullRequest, type PullReview, useDismissReview, useRequestReviewers, useUndismissReview, useUnrequestReviewer } from './api'

/** Logins typed as "alice, bob" or "@alice bob". */
const parseLogins = (text: string) => [...new Set(text.split(/[\s,]+/).map((s) => s.replace(/^@/, '')).filter(Boolean))]

/**
 * The sidebar's review requests: who was asked and has not answered; the
 * author and writers ask more people or withdraw a request. The chain
 * decides who may be asked (people who can read the repository).
 */
export function ReviewersPicker({ repo, pr, canEdit }: { repo: Repository; pr: PullRequest; canEdit: boolean }) {
  const { t } = useTranslation('reviewers')
  const id = useId()
  const o = repo.owner.login
  const [draft, setDraft] = useState('')
  const ask = useRequestReviewers(o, repo.name, pr.number, () => setDraft(''))
  const withdraw = useUnrequestReviewer(o, repo.name, pr.number)
  const list = pr.requested_reviewers ?? []
  const open = pr.state === 'open' && !pr.merged
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const logins = parseLogins(draft)
    if (logins.length > 0) ask.mutate(logins)
  }
  const error = ask.error ?? withdraw.error
  return (
    <section aria-labelledby={`${id}-h`} className="issue-side-section">
      <h2 id={`${id}-h`}>{t('title')}</h2>
      {list.length === 0 ? (
        <p className="muted">{t('none')}</p>
      ) : (
        <ul className="plain-list assignee-list">
          {list.map((u) => (
            <li key={u.login}>
              <UserLink user={u} />{' '}
              {canEdit && open && (
                <Button size="sm" variant="ghost" aria-label={t('remove', { user: u.login })} disabled={withdraw.isPending} onClick={() => withdraw.mutate(u.login)}>
                  ×
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && open && (
        <form aria-label={t('request')} onSubmit={submit}>
          <Field label={t('label')} hint={t('help')}>
            <Input id={`${id}-i`} value={draft} autoComplete="off" spellCheck={false} onChange={(e) => setDraft(e.target.value)} />
          </Field>
          <Button type="submit" size="sm" variant="outline" disabled={ask.isPending || parseLogins(draft).length === 0}>
            {ask.isPending ? t('requesting') : t('request')}
          </Button>
        </form>
      )}
      {error && (
        <p className="alert-error" role="alert">
          {errorText(error)}
        </p>
      )}
    </section>
  )
}

/**
 * Dismiss (with a reason) or undismiss an approval or request for
 * changes: maintainers only, on an open pull request. A dismissed
 * approval no longer counts toward the branch's required approvals.
 */
export function DismissAction({ repo, pr, review }: { repo: Repository; pr: PullRequest; review: PullReview }) {
  const { t } = useTranslation('reviewers')
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [message, setMessage] = useState('')
  const dismiss = useDismissReview(repo.owner.login, repo.name, pr.number, review.id, () => {
    setEditing(false)
    setMessage('')
  })
  const undismiss = useUndismissReview(repo.owner.login, repo.name, pr.number, review.id)
  const verdict = review.state === 'APPROVED' || review.state === 'REQUEST_CHANGES'
  if (!verdict || !canMaintain(repo) || pr.state !== 'open' || pr.merged) return null
  const error = dismiss.error ?? undismiss.error
  return (
    <div className="review-dismiss">
      {review.dismissed ? (
        <Button size="sm" variant="ghost" disabled={undismiss.isPending} onClick={() => undismiss.mutate()}>
          {t('undismiss')}
        </Button>
      ) : editing ? (
        <form
          aria-label={t('dismiss')}
          onSubmit={(e) => {
            e.preventDefault()
            dismiss.mutate(message)
          }}
        >
          <Field label={t('reason')}>
            <Input id={`${id}-m`} value={message} autoFocus onChange={(e) => setMessage(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(false)} />
          </Field>
          <div className="button-row">
            <Button type="submit" size="sm" disabled={dismiss.isPending}>
              {dismiss.isPending ? t('dismissing') : t('dismiss')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
          {t('dismiss')}
        </Button>
      )}
      {error && (
        <p className="alert-error" role="alert">
          {errorText(error)}
        </p>
      )}
    </div>
  )
}
