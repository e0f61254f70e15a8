import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { NotFoundCard } from '@/components/NotFoundCard'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { Tabs } from '@/components/Tabs'
import {
  Assignees,
  EditableTitle,
  type Issue,
  IssueActions,
  type IssueParts,
  issueHref,
  IssueLabels,
  MilestonePicker,
  OpeningPost,
  ReactionBar,
  StateBadge,
  stateKind,
  SubscribeButton,
  TimelineEntry,
  type TimelineEvent,
  useEditRights,
  useIssueById,
  UserLink,
  useTimeline,
} from '@/features/issues'
import { canMaintain, type Repository, repoHref } from '@/lib/forge/api'
import { CommitAuthor } from '@/components/CommitAuthor'
import { type DiffFile, filePath, parseDiff } from '@/lib/forge/diff'
import { DiffFileTree } from '@/components/DiffFileTree'
import { DiffView, type LineAnchor } from '@/components/DiffView'
import { CommitStatusIcon } from '@/components/CommitStatus'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { MergeRequirements, ReviewVerdicts } from './MergeRequirements'
import { PushedCommits } from './PushedCommits'
import { shortSha, subject, useForgeFormat } from '@/lib/forge/format'
import { nav } from '@/lib/forge/nav'
import { ReportButton } from '@/features/moderation'
import { RepoPage } from '@/features/repositories'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import {
  commentLineKey,
  type DraftComment,
  lineKey,
  MERGE_STYLES,
  type MergeStyle,
  MergeConflictError,
  type PullRequest,
  type PullReview,
  type ReviewComment,
  usePull,
  usePullCommits,
  usePullDiff,
  useReviewComments,
  useMergePull,
  useReviews,
  useSavePull,
  verdictsOf,
} from './api'
import { LineComments, ReviewCard, ReviewPanel } from './ReviewPanel'
import { DismissAction, ReviewersPicker } from './ReviewersPicker'
import { useViewedFiles } from './viewed'
import './pulls.css'

/**
 * A pull request's page, at /:owner/:repo/pulls/:number or the spec's
 * /pr/:id (a global id, answered with the canonical URL): the
 * conversation, its commits, and the files changed with inline review.
 */
export default function PullRequestScreen() {
  const { params } = useRoute()
  if (params.id !== undefined) return <PullById id={params.id} />
  const number = Number(params.number)
  return <RepoPage section="pulls">{(repo) => <PullView repo={repo} number={number} />}</RepoPage>
}

function PullById({ id }: { id: string }) {
  const query = useIssueById(id)
  const issue = query.data
  useEffect(() => {
    const repo = issue?.repository
    if (!issue || !repo) return
    const href = issueHref(repo.owner, repo.name, issue.number, Boolean(issue.pull_request))
    if (issue.pull_request) nav.replace(href)
    else nav.go(href)
  }, [issue])
  if (!/^\d+$/.test(id) || query.error instanceof NotFoundError) return <PullNotFound id={id} />
  return (
    <QueryState query={query}>
      {(i: Issue) =>
        i.repository && i.pull_request ? (
          <RepoPage section="pulls" owner={i.repository.owner} repo={i.repository.name}>
            {(r) => <PullView repo={r} number={i.number} />}
          </RepoPage>
        ) : null
      }
    </QueryState>
  )
}

function PullNotFound({ id }: { id: string | number }) {
  const { t } = useTranslation('pulls')
  useDocumentTitle(t('notFound.title'))
  return (
    <NotFoundCard
      title={t('notFound.title')}
      description={t('notFound.description', { id })}
      links={[
        { to: '/explore', label: t('notFound.explore') },
        { to: '/search', label: t('notFound.search') },
      ]}
    />
  )
}

function PullView({ repo, number }: { repo: Repository; number: number }) {
  const pr = usePull(repo.owner.login, repo.name, number)
  if (!Number.isInteger(number) || number < 1 || pr.error instanceof NotFoundError) return <PullNotFound id={String(number)} />
  return <QueryState query={pr} defer>{(p) => <PullDetail repo={repo} pr={p} />}</QueryState>
}

const TABS = ['conversation', 'commits', 'files'] as const
type PullTab = (typeof TABS)[number]

/** A pull request in the shape of its issue, for the issue parts it shares. */
const asIssue = (pr: PullRequest): IssueParts => ({ ...pr, comments: pr.comments ?? 0, labels: pr.labels ?? [], pull_request: { merged: pr.merged, merged_at: pr.merged_at } })

function PullDetail({ repo, pr }: { repo: Repository; pr: PullRequest }) {
  const { t } = useTranslation('pulls')
  const fmt = useForgeFormat()
  const [tabParam, setTab] = useUrlParam('tab', 'conversation')
  const tab: PullTab = (TABS as readonly string[]).includes(tabParam) ? (tabParam as PullTab) : 'conversation'
  // Line comments wait here until the review is submitted, whichever tab is open.
  const [drafts, setDrafts] = useState<DraftComment[]>([])
  const save = useSavePull(repo.owner.login, repo.name, pr.number)
  const may = useEditRights(repo, pr.user)
  useDocumentTitle(`${pr.title} · ${t('pull.title', { number: pr.number })} · ${repo.full_name}`)
  return (
    <div className="stack">
      <header className="issue-header">
        <EditableTitle title={pr.title} number={pr.number} canEdit={may.text} save={save} />
        {/* A div, not a p: the status icon opens a popover of blocks. */}
        <div>
          <StateBadge kind={stateKind(pr, pr.merged)} />{' '}
          <span className="muted">
            {/* GitHub names who merged it, not who opened it. */}
            <UserLink user={pr.merged ? (pr.merged_by ?? pr.user) : pr.user} />{' '}
            {pr.merged
              ? t('pull.merged', { head: pr.head.label || pr.head.ref, base: pr.base.ref, when: fmt.ago(pr.merged_at ?? undefined) })
              : t('pull.wantsToMerge', { head: pr.head.label || pr.head.ref, base: pr.base.ref })}
          </span>{' '}
          <CommitStatusIcon owner={repo.owner.login} repo={repo.name} sha={pr.head.sha} />{' '}
          <ReportButton kind="issue" target={`${repo.full_name}#${pr.number}`} label={t('pull.title', { number: pr.number })} />
        </div>
      </header>
      <Tabs label={t('pull.tabs')} tabs={TABS.map((id) => ({ id, label: t(`pull.tab.${id}`) }))} selected={tab} onSelect={setTab}>
        {tab === 'conversation' && <ConversationTab repo={repo} pr={pr} />}
        {tab === 'commits' && <CommitsTab repo={repo} pr={pr} />}
        {tab === 'files' && <FilesTab repo={repo} pr={pr} drafts={drafts} setDrafts={setDrafts} />}
      </Tabs>
    </div>
  )
}

type TimelineItem = { kind: 'event'; at: string; event: TimelineEvent } | { kind: 'review'; at: string; review: PullReview }

function ConversationTab({ repo, pr }: { repo: Repository; pr: PullRequest }) {
  const { t } = useTranslation('pulls')
  const save = useSavePull(repo.owner.login, repo.name, pr.number)
  const may = useEditRights(repo, pr.user)
  const o = repo.owner.login
  const comments = useTimeline(o, repo.name, pr.number)
  const reviews = useReviews(o, repo.name, pr.number)
  const lineComments = useReviewComments(o, repo.name, pr.number, reviews.data ?? [])
  const timeline = useMemo(() => {
    const items: TimelineItem[] = [
      ...(comments.data ?? []).map((e): TimelineItem => ({ kind: 'event', at: e.created_at, event: e })),
      ...(reviews.data ?? []).filter((r) => r.state !== 'PENDING' && r.state !== 'REQUEST_REVIEW').map((r): TimelineItem => ({ kind: 'review', at: r.submitted_at, review: r })),
    ]
    return items.sort((a, b) => a.at.localeCompare(b.at))
  }, [comments.data, reviews.data])
  return (
    <div className="issue-layout">
      <div className="stack issue-main">
        <OpeningPost post={pr} label={t('pull.description')} canEdit={may.text} save={save} />
        <ReactionBar owner={o} repo={repo.name} target={{ kind: 'issue', number: pr.number }} />
        <QueryState query={comments} defer>
          {() => (
            <div className="stack">
              {timeline.map((item) =>
                item.kind === 'event' ? (
                  item.event.type === 'pull_push' ? (
                    <PushedCommits key={`e${item.event.type}${item.event.id}`} repo={repo} event={item.event} />
                  ) : (
                    <TimelineEntry key={`e${item.event.type}${item.event.id}`} repo={repo} event={item.event} />
                  )
                ) : (
                  <ReviewCard
                    key={`r${item.review.id}`}
                    review={item.review}
                    comments={lineComments.filter((c) => c.pull_request_review_id === item.review.id)}
                    action={<DismissAction repo={repo} pr={pr} review={item.review} />}
                  />
                ),
              )}
            </div>
          )}
        </QueryState>
        <MergeBox repo={repo} pr={pr} />
        <IssueActions repo={repo} issue={asIssue(pr)} pull />
      </div>
      <aside className="issue-side">
        <ReviewersPicker repo={repo} pr={pr} canEdit={may.text} />
        <Assignees assignees={pr.assignees} canEdit={may.assignees} save={save} />
        <IssueLabels repo={repo} issue={asIssue(pr)} />
        <MilestonePicker repo={repo} issue={asIssue(pr)} />
        <SubscribeButton repo={repo} number={pr.number} />
      </aside>
    </div>
  )
}

/**
 * The merge box: who may merge (maintainers, from the repository's
 * permissions), how (merge commit, squash, rebase, rebase then merge
 * commit, fast-forward only), whether the head branch goes afterwards,
 * what stops it (conflicts, named by file), and where the reviewers stand:
 * a merge while changes are requested is offered as overriding them.
 */
function MergeBox({ repo, pr }: { repo: Repository; pr: PullRequest }) {
  const { t } = useTranslation('pulls')
  const fmt = useForgeFormat()
  const id = useId()
  const [style, setStyle] = useState<MergeStyle>('merge')
  const [deleteBranch, setDeleteBranch] = useState(false)
  const deletable = canDeleteHead(repo, pr)
  const merge = useMergePull(repo.owner.login, repo.name, pr.number)
  const reviews = useReviews(repo.owner.login, repo.name, pr.number)
  const verdicts = useMemo(() => verdictsOf(reviews.data ?? []), [reviews.data])
  const blocked = verdicts.changesRequested.length > 0
  if (pr.merged) {
    return (
      <Card as="section" className="merge-box merged" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>{t('merge.mergedTitle')}</h2>
        <p>
          <UserLink user={pr.merged_by} /> {t('merge.mergedText', { base: pr.base.ref, when: fmt.ago(pr.merged_at ?? undefined) })}
          {pr.merge_commit_sha && (
            <>
              {' '}
              <PreloadLink className="mono" to={repoHref.commit(repo.owner.login, repo.name, pr.merge_commit_sha)}>
                {shortSha(pr.merge_commit_sha)}
              </PreloadLink>
            </>
          )}
        </p>
      </Card>
    )
  }
  if (pr.state === 'closed') {
    return (
      <Card as="section" className="merge-box" aria-label={t('merge.title')}>
        <p>{t('merge.closed')}</p>
      </Card>
    )
  }
  // The pull request names its conflicted files, and so does the server's refusal to merge.
  const refused = merge.error instanceof MergeConflictError ? merge.error : null
  const conflicts = refused?.files.length ? refused.files : (pr.conflicted_files ?? [])
  const conflicted = !pr.mergeable || refused !== null
  return (
    <Card as="section" className={`merge-box${blocked ? ' changes-requested' : ''}`} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('merge.title')}</h2>
      <ReviewVerdicts verdicts={verdicts} id={`${id}-v`} />
      {conflicted ? (
        <div className="merge-conflict" role="alert">
          <p>
            <strong>{t('merge.conflict')}</strong>
          </p>
          {conflicts.length > 0 ? (
            <>
              <p>{t('merge.conflictFiles', { count: conflicts.length })}</p>
              <ul className="mono">
                {conflicts.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">{t('merge.conflictUnknown')}</p>
          )}
        </div>
      ) : (
        <p className="merge-ok">{t('merge.clean')}</p>
      )}
      <MergeRequirements repo={repo} pr={pr} />
      {canMaintain(repo) ? (
        <div className="merge-controls">
          <Field label={t('merge.style')}>
            <Select id={`${id}-s`} value={style} onChange={(e) => setStyle(e.target.value as MergeStyle)}>
              {MERGE_STYLES.map((s) => (
                <option key={s} value={s}>
                  {t(`merge.styles.${s}`)}
                </option>
              ))}
            </Select>
          </Field>
          {deletable && (
            <label className="merge-delete-branch">
              <Input type="checkbox" checked={deleteBranch} onChange={(e) => setDeleteBranch(e.target.checked)} />{' '}
              {t('merge.deleteBranch', { branch: pr.head.ref })}
            </label>
          )}
          <Button
            variant={blocked ? 'outline' : 'primary'}
            className={blocked ? 'merge-override' : undefined}
            aria-describedby={blocked ? `${id}-v` : undefined}
            disabled={conflicted || merge.isPending}
            onClick={() => merge.mutate({ style, headSha: pr.head.sha, deleteBranch: deletable && deleteBranch })}
          >
            {merge.isPending ? t('merge.merging') : blocked ? t('merge.override') : t(`merge.do.${style}`)}
          </Button>
        </div>
      ) : (
        <p className="muted">{t('merge.onlyMaintainers')}</p>
      )}
      {merge.isError && !(refused && refused.files.length > 0) && (
        <p className="alert-error" role="alert">
          {errorText(merge.error)}
        </p>
      )}
    </Card>
  )
}

/**
 * Whether the server would delete the head branch after the merge: a
 * branch of this repository, neither its default nor a protected one.
 */
function canDeleteHead(repo: Repository, pr: PullRequest): boolean {
  const headRepo = pr.head.repo_id ?? pr.head.repo?.id
  const baseRepo = pr.base.repo_id ?? pr.base.repo?.id ?? repo.id
  return (
    (headRepo === undefined || headRepo === baseRepo) &&
    pr.head.ref !== repo.default_branch &&
    pr.head.ref !== pr.base.ref &&
    !(repo.protected_branches ?? []).includes(pr.head.ref)
  )
}

function CommitsTab({ repo, pr }: { repo: Repository; pr: PullRequest }) {
  const { t } = useTranslation('pulls')
  const fmt = useForgeFormat()
  const commits = usePullCommits(repo.owner.login, repo.name, pr.number, true)
  return (
    <QueryState query={commits} defer>
      {(list) =>
        list.length === 0 ? (
          <EmptyState message={t('pull.noCommits')} />
        ) : (
          <ol className="commit-list plain-list">
            {list.map((c) => (
              <li key={c.sha} className="card card-sm commit-row">
                <div>
                  <PreloadLink to={repoHref.commit(repo.owner.login, repo.name, c.sha)} className="commit-subject">
                    {subject(c.commit.message)}
                  </PreloadLink>
                  <p className="muted commit-meta">
                    <CommitAuthor commit={c} /> · <time dateTime={c.commit.author.date}>{fmt.ago(c.commit.author.date)}</time>
                  </p>
                </div>
                <PreloadLink className="mono commit-sha" to={repoHref.commit(repo.owner.login, repo.name, c.sha)}>
                  {shortSha(c.sha)}
                </PreloadLink>
              </li>
            ))}
          </ol>
        )
      }
    </QueryState>
  )
}

function FilesTab({ repo, pr, drafts, setDrafts }: { repo: Repository; pr: PullRequest; drafts: DraftComment[]; setDrafts: (f: (d: DraftComment[]) => DraftComment[]) => void }) {
  const { t } = useTranslation('pulls')
  const user = useSignedInUser()
  const o = repo.owner.login
  const diff = usePullDiff(o, repo.name, pr.number, true)
  const reviews = useReviews(o, repo.name, pr.number)
  const comments = useReviewComments(o, repo.name, pr.number, reviews.data ?? [])
  const [editing, setEditing] = useState<LineAnchor | null>(null)
  const byLine = useMemo(() => {
    const map = new Map<string, ReviewComment[]>()
    // An outdated comment's line is no longer the head's: it stays in the conversation only, as on GitHub.
    for (const c of comments) if (!c.outdated) map.set(commentLineKey(c), [...(map.get(commentLineKey(c)) ?? []), c])
    return map
  }, [comments])
  const files = useMemo(() => (diff.data === undefined ? [] : parseDiff(diff.data)), [diff.data])
  const same = (a: LineAnchor, b: { path: string; side: string; line: number }) => a.path === b.path && a.side === b.side && a.line === b.line
  const renderBelow = (anchor: LineAnchor) => {
    const existing = byLine.get(lineKey(anchor.path, anchor.side, anchor.line)) ?? []
    const mine = drafts.filter((d) => same(anchor, d))
    const open = editing && same(anchor, editing) ? editing : null
    if (existing.length === 0 && mine.length === 0 && !open) return null
    return (
      <LineComments
        comments={existing}
        drafts={mine}
        editing={open}
        onSave={(body) => {
          setDrafts((d) => [...d, { ...anchor, body }])
          setEditing(null)
        }}
        onCancel={() => setEditing(null)}
        onDiscard={(draft) => setDrafts((d) => d.filter((x) => x !== draft))}
      />
    )
  }
  const canReview = Boolean(user) && pr.state === 'open' && !pr.merged
  const viewed = useViewedFiles(user?.username ?? '', repo.owner.login, repo.name, pr.number)
  return (
    <div className="stack">
      <div className="files-toolbar">
        {user ? <ViewedCount files={files} isViewed={viewed.isViewed} /> : <p className="muted">{t('review.signIn')}</p>}
        {viewed.failed && (
          <p className="inline-error" role="alert">
            {t('files.viewedFailed')}
          </p>
        )}
        {canReview && user && (
          <ReviewPanel
            repo={repo}
            pr={pr}
            drafts={drafts}
            pending={reviews.data?.find((rv) => rv.state === 'PENDING' && rv.user.login.toLowerCase() === user.username.toLowerCase())}
            isAuthor={user.username.toLowerCase() === pr.user.login.toLowerCase()}
            onSubmitted={() => setDrafts(() => [])}
          />
        )}
      </div>
      <QueryState query={diff} defer>
        {() => <FilesDiff files={files} viewed={user ? viewed : undefined} renderBelow={renderBelow} onComment={canReview ? setEditing : undefined} />}
      </QueryState>
    </div>
  )
}

/** "N / M files viewed", for the signed-in reviewer. */
function ViewedCount({ files, isViewed }: { files: DiffFile[]; isViewed: (f: DiffFile) => boolean }) {
  const { t } = useTranslation('pulls')
  const viewed = files.filter(isViewed).length
  return (
    <p className="muted" role="status">
      {t('files.viewedCount', { count: files.length, viewed, total: files.length })}
    </p>
  )
}

/**
 * The diff with its file tree beside it; a signed-in reviewer can mark a
 * file viewed, which folds it until a later change to it.
 */
function FilesDiff({ files, viewed, ...lineTools }: { files: DiffFile[]; viewed?: ReturnType<typeof useViewedFiles> } & Pick<Parameters<typeof DiffView>[0], 'renderBelow' | 'onComment'>) {
  const { t } = useTranslation('pulls')
  return (
    <div className={files.length > 0 ? 'files-layout' : undefined}>
      {files.length > 0 && <DiffFileTree files={files} viewed={viewed?.isViewed} />}
      <div className="files-main">
        <DiffView
          files={files}
          folded={viewed?.isViewed}
          fileActions={
            viewed
              ? (f) => (
                  <label className="diff-viewed">
                    <Input type="checkbox" checked={viewed.isViewed(f)} onChange={(e) => viewed.setViewed(f, e.target.checked)} /> {t('files.viewed')}{' '}
                    <span className="sr-only">{filePath(f)}</span>
                  </label>
                )
              : undefined
          }
          {...lineTools}
        />
      </div>
    </div>
  )
}
