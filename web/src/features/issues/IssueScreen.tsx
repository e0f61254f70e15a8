import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { NotFoundCard } from '@/components/NotFoundCard'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { canMaintain, type Repository, repoHref } from '@/features/repositories/api'
import { useForgeFormat } from '@/features/repositories/format'
import { nav } from '@/features/repositories/nav'
import { errorText, RepoPage } from '@/features/repositories/RepoLayout'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { addComment, type Issue, setIssueLabels, setState, type StateReason, useComments, useInvalidateIssues, useIssue, useIssueById, useLabels, useSaveIssue } from './api'
import { Assignees, EditableTitle, OpeningPost, useEditRights } from './edit'
import { CommentCard, LabelBadge, MarkdownEditor, StateBadge, stateKind, UserLink } from './parts'
import './issues.css'

/** The canonical page of an issue or pull request. */
export function issueHref(owner: string, repo: string, number: number, pull: boolean): string {
  return `${repoHref.section(owner, repo, pull ? 'pulls' : 'issues')}/${number}`
}

/**
 * An issue's page, at /:owner/:repo/issues/:number or the spec's /issue/:id
 * (a global id, answered with the canonical URL). A pull request's number
 * goes to its pull request page.
 */
export default function IssueScreen() {
  const { params } = useRoute()
  if (params.id !== undefined) return <IssueById id={params.id} />
  const number = Number(params.number)
  return <RepoPage section="issues">{(repo) => <IssueView repo={repo} number={number} />}</RepoPage>
}

function IssueById({ id }: { id: string }) {
  const query = useIssueById(id)
  const issue = query.data
  const repo = issue?.repository
  useEffect(() => {
    if (!issue || !repo) return
    const href = issueHref(repo.owner, repo.name, issue.number, Boolean(issue.pull_request))
    if (issue.pull_request) nav.go(href)
    else nav.replace(href)
  }, [issue, repo])
  if (!/^\d+$/.test(id) || query.error instanceof NotFoundError) return <IssueNotFound id={id} />
  return (
    <QueryState query={query}>
      {(i) =>
        i.repository && !i.pull_request ? (
          <RepoPage section="issues" owner={i.repository.owner} repo={i.repository.name}>
            {(r) => <IssueView repo={r} number={i.number} />}
          </RepoPage>
        ) : null
      }
    </QueryState>
  )
}

export function IssueNotFound({ id }: { id: string | number }) {
  const { t } = useTranslation('issues')
  const title = t('notFound.title', { id })
  useDocumentTitle(title)
  return (
    <NotFoundCard
      title={title}
      description={t('notFound.description')}
      links={[
        { to: '/explore', label: t('notFound.explore') },
        { to: '/search', label: t('notFound.search') },
      ]}
    />
  )
}

function IssueView({ repo, number }: { repo: Repository; number: number }) {
  const issue = useIssue(repo.owner.login, repo.name, number)
  const data = issue.data
  useEffect(() => {
    if (data?.pull_request) nav.go(issueHref(repo.owner.login, repo.name, data.number, true))
  }, [data, repo])
  if (!Number.isInteger(number) || number < 1 || issue.error instanceof NotFoundError) return <IssueNotFound id={String(number)} />
  return <QueryState query={issue}>{(i) => (i.pull_request ? null : <IssueDetail repo={repo} issue={i} />)}</QueryState>
}

function IssueDetail({ repo, issue }: { repo: Repository; issue: Issue }) {
  const { t } = useTranslation('issues')
  const fmt = useForgeFormat()
  const save = useSaveIssue(repo.owner.login, repo.name, issue.number)
  const may = useEditRights(repo, issue.user)
  useDocumentTitle(`${issue.title} · ${t('issue.title', { number: issue.number })} · ${repo.full_name}`)
  return (
    <div className="stack">
      <header className="issue-header">
        <EditableTitle title={issue.title} number={issue.number} canEdit={may.text} save={save} />
        <p>
          <StateBadge kind={stateKind(issue)} />{' '}
          <span className="muted">
            <UserLink user={issue.user} /> {t('issue.opened', { when: fmt.ago(issue.created_at) })} · {t('issue.comments', { count: issue.comments })}
          </span>
        </p>
      </header>
      <div className="issue-layout">
        <div className="stack issue-main">
          <OpeningPost post={issue} label={t('issue.description')} canEdit={may.text} save={save} />
          <Conversation repo={repo} number={issue.number} />
          <IssueActions repo={repo} issue={issue} />
        </div>
        <aside className="issue-side">
          <Assignees assignees={issue.assignees} canEdit={may.assignees} save={save} />
          <IssueLabels repo={repo} issue={issue} />
        </aside>
      </div>
    </div>
  )
}

/** The comments of an issue or a pull request's conversation. */
export function Conversation({ repo, number }: { repo: Repository; number: number }) {
  const comments = useComments(repo.owner.login, repo.name, number)
  return (
    <QueryState query={comments}>
      {(list) => (
        <div className="stack">
          {list.map((c) => (
            <CommentCard key={c.id} comment={c} />
          ))}
        </div>
      )}
    </QueryState>
  )
}

/**
 * The comment box, and closing (as completed or not planned) or reopening
 * for the author and maintainers. A comment typed before closing is posted first.
 */
export function IssueActions({ repo, issue, pull = false }: { repo: Repository; issue: Issue; pull?: boolean }) {
  const { t } = useTranslation('issues')
  const user = useSignedInUser()
  const [text, setText] = useState('')
  const o = repo.owner.login
  const invalidate = useInvalidateIssues(o, repo.name)
  const comment = useMutation({
    mutationFn: () => addComment(o, repo.name, issue.number, text),
    onSuccess: () => {
      setText('')
      return invalidate()
    },
  })
  const changeState = useMutation({
    mutationFn: async ({ state, reason }: { state: 'open' | 'closed'; reason?: StateReason }) => {
      if (text.trim()) await addComment(o, repo.name, issue.number, text)
      return setState(o, repo.name, issue.number, pull, reason ? { state, state_reason: reason } : { state })
    },
    onSuccess: () => {
      setText('')
      return invalidate()
    },
  })
  if (!user) return <p className="muted">{t('issue.signInToComment')}</p>
  const mayClose = canMaintain(repo) || user.username.toLowerCase() === issue.user.login.toLowerCase()
  const busy = comment.isPending || changeState.isPending
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (text.trim()) comment.mutate()
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
              <Button variant="outline" disabled={busy} onClick={() => changeState.mutate({ state: 'closed', reason: pull ? undefined : 'completed' })}>
                {pull ? t('issue.closePull') : t('issue.closeCompleted')}
              </Button>
              {!pull && (
                <Button variant="outline" disabled={busy} onClick={() => changeState.mutate({ state: 'closed', reason: 'not_planned' })}>
                  {t('issue.closeNotPlanned')}
                </Button>
              )}
            </>
          )}
          {mayClose && !merged && issue.state === 'closed' && (
            <Button variant="outline" disabled={busy} onClick={() => changeState.mutate({ state: 'open' })}>
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
export function IssueLabels({ repo, issue }: { repo: Repository; issue: Issue }) {
  const { t } = useTranslation('issues')
  const user = useSignedInUser()
  const o = repo.owner.login
  const [editing, setEditing] = useState(false)
  const [picked, setPicked] = useState<number[]>(issue.labels.map((l) => l.id))
  const all = useLabels(o, repo.name)
  const invalidate = useInvalidateIssues(o, repo.name)
  const save = useMutation({
    mutationFn: () => setIssueLabels(o, repo.name, issue.number, picked),
    onSuccess: () => {
      setEditing(false)
      return invalidate()
    },
  })
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
                    <input type="checkbox" checked={picked.includes(l.id)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, l.id] : p.filter((x) => x !== l.id)))} /> <LabelBadge label={l} />
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
            <Button size="sm" disabled={save.isPending} onClick={() => save.mutate()}>
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
