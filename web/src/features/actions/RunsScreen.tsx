import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Paged } from '@/components/Lists'
import { PreloadLink } from '@/components/PreloadLink'
import { Select } from '@/components/Select'
import { RepoPage } from '@/features/repositories'
import { type Repository, repoHref } from '@/lib/forge/api'
import { shortSha, useForgeFormat } from '@/lib/forge/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { awaitsApproval, canWrite, type Run, runHref, STATES, useRuns, useWorkflows } from './api'
import { StateIcon } from './StateIcon'
import { WorkflowPanel } from './WorkflowPanel'
import './actions.css'

const LIMIT = 20
const EVENTS = ['push', 'pull_request', 'workflow_dispatch', 'schedule', 'release', 'issues', 'issue_comment'] as const

/** A repository's workflow runs, newest first, filtered by workflow, branch, event, status and actor (kept in the URL). */
export default function RunsScreen() {
  return <RepoPage section="actions">{(repo) => <Runs repo={repo} />}</RepoPage>
}

function Runs({ repo }: { repo: Repository }) {
  const { t } = useTranslation('actions')
  useDocumentTitle(t('runs.title', { repo: repo.full_name }))
  const user = useSignedInUser()
  const o = repo.owner.login
  const [workflow, setWorkflow] = useUrlParam('workflow')
  const [branch, setBranch] = useUrlParam('branch')
  const [event, setEvent] = useUrlParam('event')
  const [status, setStatus] = useUrlParam('status')
  const [actor, setActor] = useUrlParam('actor')
  const [pageParam, setPageParam] = useUrlParam('page', '1')
  const page = Math.max(1, Number(pageParam) || 1)
  const setPage = (p: number) => setPageParam(String(p))
  // Every filter change starts again from the first page.
  const filterBy = (set: (v: string) => void) => (v: string) => {
    set(v)
    setPage(1)
  }
  const runs = useRuns(o, repo.name, { workflow, branch, event, status, actor }, page, LIMIT)
  const filtered = Boolean(workflow || branch || event || status || actor)
  return (
    <div className="stack">
      <h1 className="actions-heading">{t('runs.heading')}</h1>
      <RunFilters
        repo={repo}
        values={{ workflow, branch, event, status, actor }}
        onWorkflow={filterBy(setWorkflow)}
        onEvent={filterBy(setEvent)}
        onStatus={filterBy(setStatus)}
        onText={(b, a) => {
          setBranch(b)
          setActor(a)
          setPage(1)
        }}
      />
      {workflow && <WorkflowPanel key={workflow} repo={repo} file={workflow} canRun={canWrite(repo, user?.username)} />}
      <Paged query={runs} page={page} onPage={setPage} limit={LIMIT} label={t('runs.heading')} empty={filtered ? t('runs.noneMatch') : t('runs.empty')}>
        {(items) => (
          <ul className="plain-list action-runs" aria-label={t('runs.heading')}>
            {items.map((run) => (
              <RunItem key={run.id} repo={repo} run={run} />
            ))}
          </ul>
        )}
      </Paged>
    </div>
  )
}

interface FilterValues {
  workflow: string
  branch: string
  event: string
  status: string
  actor: string
}

function RunFilters({
  repo,
  values,
  onWorkflow,
  onEvent,
  onStatus,
  onText,
}: {
  repo: Repository
  values: FilterValues
  onWorkflow: (v: string) => void
  onEvent: (v: string) => void
  onStatus: (v: string) => void
  onText: (branch: string, actor: string) => void
}) {
  const { t } = useTranslation('actions')
  const workflows = useWorkflows(repo.owner.login, repo.name)
  const [branch, setBranch] = useState(values.branch)
  const [actor, setActor] = useState(values.actor)
  const files = workflows.data?.map((w) => ({ id: w.id, name: w.name || w.id })) ?? []
  if (values.workflow && !files.some((f) => f.id === values.workflow)) files.push({ id: values.workflow, name: values.workflow })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onText(branch.trim(), actor.trim())
  }
  return (
    <form className="action-filters" role="search" aria-label={t('filters.label')} onSubmit={submit}>
      <Field label={t('filters.workflow')}>
        <Select value={values.workflow} onChange={(e) => onWorkflow(e.target.value)}>
          <option value="">{t('filters.allWorkflows')}</option>
          {files.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('filters.event')}>
        <Select value={values.event} onChange={(e) => onEvent(e.target.value)}>
          <option value="">{t('filters.allEvents')}</option>
          {EVENTS.map((ev) => (
            <option key={ev} value={ev}>
              {ev}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('filters.status')}>
        <Select value={values.status} onChange={(e) => onStatus(e.target.value)}>
          <option value="">{t('filters.allStatuses')}</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {t(`state.${s}`)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('filters.branch')}>
        <Input value={branch} onChange={(e) => setBranch(e.target.value)} placeholder={repo.default_branch} />
      </Field>
      <Field label={t('filters.actor')}>
        <Input value={actor} onChange={(e) => setActor(e.target.value)} />
      </Field>
      <Button type="submit" size="sm" variant="outline">
        {t('filters.apply')}
      </Button>
    </form>
  )
}

function RunItem({ repo, run }: { repo: Repository; run: Run }) {
  const { t } = useTranslation('actions')
  const fmt = useForgeFormat()
  const o = repo.owner.login
  const when = run.started_at || run.created_at
  return (
    <li className="action-run">
      <StateIcon state={run.state} />
      <div className="action-run-main">
        <PreloadLink to={runHref(o, repo.name, run.id)} className="action-run-title">
          {run.display_title || t('run.untitled', { number: run.run_number })}
        </PreloadLink>
        <p className="muted action-run-meta">
          <span>{t('runs.number', { workflow: run.path, number: run.run_number })}</span>
          {' · '}
          <span>{run.event}</span>
          {run.head_branch && (
            <>
              {' · '}
              <span className="badge">{run.head_branch}</span>
            </>
          )}
          {run.head_sha && (
            <>
              {' · '}
              <a href={repoHref.commit(o, repo.name, run.head_sha)} className="action-sha" aria-label={t('run.commitLabel', { sha: run.head_sha })}>
                {shortSha(run.head_sha)}
              </a>
            </>
          )}
          {run.actor?.login && (
            <>
              {' · '}
              <span>{t('runs.by', { actor: run.actor.login })}</span>
            </>
          )}
          {awaitsApproval(run) && (
            <>
              {' · '}
              <span className="badge action-needs-approval">{t('runs.needsApproval')}</span>
            </>
          )}
        </p>
      </div>
      <time className="muted" dateTime={when} title={fmt.exact(when)}>
        {fmt.ago(when)}
      </time>
    </li>
  )
}
