import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { NotFoundCard } from '@/components/NotFoundCard'
import { NotFoundError, QueryState } from '@/components/QueryState'
import type { Repository } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { nav } from '@/lib/forge/nav'
import { BountyPanel } from '@/features/bounties'
import { ReportButton } from '@/features/moderation'
import { RepoPage } from '@/features/repositories'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { IssueActions, IssueLabels, issueHref } from './IssueActions'
import { type Issue, useIssue, useIssueById, useSaveIssue } from './api'
import { Assignees, EditableTitle, OpeningPost, useEditRights } from './OpeningPost'
import { StateBadge, stateKind, UserLink } from './CommentCard'
import { ReactionBar } from './ReactionBar'
import { MilestonePicker, PinButton, SubscribeButton } from './Sidebar'
import { Timeline } from './Timeline'
import './issues.css'

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
          </span>{' '}
          <ReportButton kind="issue" target={`${repo.full_name}#${issue.number}`} label={t('issue.title', { number: issue.number })} />
        </p>
      </header>
      <div className="issue-layout">
        <div className="stack issue-main">
          <OpeningPost post={issue} label={t('issue.description')} canEdit={may.text} save={save} />
          <ReactionBar owner={repo.owner.login} repo={repo.name} target={{ kind: 'issue', number: issue.number }} />
          <Timeline repo={repo} number={issue.number} />
          <IssueActions repo={repo} issue={issue} />
        </div>
        <aside className="issue-side">
          <Assignees assignees={issue.assignees} canEdit={may.assignees} save={save} />
          <IssueLabels repo={repo} issue={issue} />
          <MilestonePicker repo={repo} issue={issue} />
          <SubscribeButton repo={repo} number={issue.number} />
          <PinButton repo={repo} issue={issue} />
          <BountyPanel owner={repo.owner.login} repo={repo.name} repoId={repo.id} isPrivate={repo.private} number={issue.number} open={issue.state === 'open'} />
        </aside>
      </div>
    </div>
  )
}
