import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import { RepoPage } from '@/features/repositories'
import { useRoute } from '@/lib/routes'
import { type Repository, repoHref } from '@/lib/forge/api'
import { shortSha, useForgeFormat } from '@/lib/forge/format'
import { nav } from '@/lib/forge/nav'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import {
  type Artifact,
  awaitsApproval,
  canWrite,
  hasEnded,
  type Job,
  type Live,
  type Run,
  runHref,
  useArtifacts,
  useJobs,
  useRun,
  useRunStream,
} from './api'
import { ApprovalNotice } from './ApprovalNotice'
import { JobLogView } from './JobLogView'
import { JobsGraph } from './JobsGraph'
import { RunActions } from './RunActions'
import { StateIcon } from './StateIcon'
import './actions.css'

/** One workflow run: its state, its jobs graph and the selected job's step logs, live while it runs. */
export default function RunScreen() {
  const { params } = useRoute()
  const id = Number(params.id)
  return <RepoPage section="actions">{(repo) => (Number.isSafeInteger(id) && id > 0 ? <RunPage repo={repo} id={id} /> : <NotARun />)}</RepoPage>
}

function NotARun() {
  const { t } = useTranslation('actions')
  return <EmptyState message={t('run.notFound')} />
}

function RunPage({ repo, id }: { repo: Repository; id: number }) {
  const o = repo.owner.login
  const live = useRunStream(o, repo.name, id, true)
  const run = useRun(o, repo.name, id, live === 'poll')
  return <QueryState query={run}>{(r) => <RunView repo={repo} run={r} live={live} />}</QueryState>
}

function RunView({ repo, run, live }: { repo: Repository; run: Run; live: Live }) {
  const { t } = useTranslation('actions')
  const user = useSignedInUser()
  const jobs = useJobs(repo.owner.login, repo.name, run.id, live === 'poll', hasEnded(run.state))
  const [jobParam, setJobParam] = useUrlParam('job')
  useDocumentTitle(t('run.title', { title: run.display_title, repo: repo.full_name }))
  const writer = canWrite(repo, user?.username)
  return (
    <div className="stack">
      <RunHeader repo={repo} run={run} />
      {awaitsApproval(run) && <ApprovalNotice repo={repo} run={run} canApprove={writer} />}
      {writer && <RunActions repo={repo} run={run} onRerun={(next) => nav.go(runHref(repo.owner.login, repo.name, next.id))} />}
      {run.error && (
        <div className="action-run-error" role="alert">
          <strong>{t('run.parseError')}</strong>
          <pre>{run.error}</pre>
        </div>
      )}
      {live === 'poll' && (
        <p className="muted" role="status">
          {t('run.polling')}
        </p>
      )}
      <QueryState query={jobs}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t('run.noJobs')} />
          ) : (
            <JobsAndLog repo={repo} jobs={list} selectedParam={jobParam} onSelect={(j) => setJobParam(String(j.id))} live={live} />
          )
        }
      </QueryState>
      <ArtifactsSection repo={repo} run={run} />
    </div>
  )
}

/** What the run's jobs uploaded, each with its size, its expiry and a download link (gone once expired). */
function ArtifactsSection({ repo, run }: { repo: Repository; run: Run }) {
  const { t } = useTranslation('actions')
  const artifacts = useArtifacts(repo.owner.login, repo.name, run.id, hasEnded(run.state))
  return (
    <section className="action-artifacts" aria-labelledby="action-artifacts-title">
      <h2 id="action-artifacts-title">{t('artifacts.title')}</h2>
      <QueryState query={artifacts}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{t('artifacts.none')}</p>
          ) : (
            <table className="action-artifacts-table">
              <thead>
                <tr>
                  <th scope="col">{t('artifacts.name')}</th>
                  <th scope="col">{t('artifacts.size')}</th>
                  <th scope="col">{t('artifacts.expires')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((a) => (
                  <ArtifactRow key={a.id} artifact={a} />
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </section>
  )
}

function ArtifactRow({ artifact: a }: { artifact: Artifact }) {
  const { t } = useTranslation('actions')
  const fmt = useForgeFormat()
  return (
    <tr>
      <td>
        {a.expired ? (
          <span>{a.name}</span>
        ) : (
          <a href={a.archive_download_url} download={`${a.name}.zip`} aria-label={t('artifacts.download', { name: a.name })}>
            {a.name}
          </a>
        )}
        {a.cid && (
          <span className="muted action-artifact-cid" title={a.cid}>
            {' '}
            {t('artifacts.cid', { cid: a.cid })}
          </span>
        )}
      </td>
      <td>{fmt.bytes(a.size_in_bytes)}</td>
      <td>
        {a.expired ? (
          t('artifacts.expired')
        ) : (
          <time dateTime={a.expires_at} title={fmt.exact(a.expires_at)}>
            {fmt.ago(a.expires_at)}
          </time>
        )}
      </td>
    </tr>
  )
}

function JobsAndLog({ repo, jobs, selectedParam, onSelect, live }: { repo: Repository; jobs: Job[]; selectedParam: string; onSelect: (j: Job) => void; live: Live }) {
  // Without a choice, the job most worth reading: the first failed, else the first running, else the first.
  const selected =
    jobs.find((j) => String(j.id) === selectedParam) ?? jobs.find((j) => j.state === 'failure') ?? jobs.find((j) => j.state === 'running') ?? jobs[0]
  return (
    <div className="action-run-body">
      <JobsGraph jobs={jobs} selected={selected.id} onSelect={onSelect} />
      <JobLogView key={selected.id} repo={repo} job={selected} live={live} />
    </div>
  )
}

function RunHeader({ repo, run }: { repo: Repository; run: Run }) {
  const { t } = useTranslation('actions')
  const fmt = useForgeFormat()
  const o = repo.owner.login
  const when = run.started_at || run.created_at
  return (
    <header className="action-run-header">
      <h1>
        <StateIcon state={run.state} /> {run.display_title || t('run.untitled', { number: run.run_number })}{' '}
        <span className="muted">#{run.run_number}</span>
      </h1>
      <dl className="action-run-facts">
        <div>
          <dt>{t('run.state')}</dt>
          <dd>{t(`state.${run.state}`, { defaultValue: run.state })}</dd>
        </div>
        <div>
          <dt>{t('run.workflow')}</dt>
          <dd>
            <a href={`${repoHref.section(o, repo.name, 'actions')}?workflow=${encodeURIComponent(run.path)}`}>{run.path}</a>
          </dd>
        </div>
        <div>
          <dt>{t('run.event')}</dt>
          <dd>{run.event}</dd>
        </div>
        {run.head_branch && (
          <div>
            <dt>{t('run.branch')}</dt>
            <dd>{run.head_branch}</dd>
          </div>
        )}
        {run.head_sha && (
          <div>
            <dt>{t('run.commit')}</dt>
            <dd>
              <a href={repoHref.commit(o, repo.name, run.head_sha)} className="action-sha" aria-label={t('run.commitLabel', { sha: run.head_sha })}>
                {shortSha(run.head_sha)}
              </a>
            </dd>
          </div>
        )}
        {run.actor?.login && (
          <div>
            <dt>{t('run.actor')}</dt>
            <dd>
              <a href={`/user/${encodeURIComponent(run.actor.login)}`}>{run.actor.login}</a>
            </dd>
          </div>
        )}
        {run.approved_by?.login && (
          <div>
            <dt>{t('run.approvedBy')}</dt>
            <dd>
              <a href={`/user/${encodeURIComponent(run.approved_by.login)}`}>{run.approved_by.login}</a>
            </dd>
          </div>
        )}
        <div>
          <dt>{t('run.started')}</dt>
          <dd>
            <time dateTime={when} title={fmt.exact(when)}>
              {fmt.ago(when)}
            </time>
          </dd>
        </div>
      </dl>
    </header>
  )
}
