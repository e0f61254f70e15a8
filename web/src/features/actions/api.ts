// Gitea Actions' API for one repository (docs: issue 26's contract): runs,
// jobs and their logs, the run's live stream, and the owner's runners,
// secrets and variables. The routes are not in the OpenAPI document yet, so
// their shapes are written here from the contract.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { Page } from '@/lib/chain/api'
import { isOwner, type Repository, repoApi, type User } from '@/lib/forge/api'
import { ApiError, apiError, apiFetch, deleteJSON, getJSON, postJSON, putJSON, retryUnlessNotFound } from '@/lib/http'
import { NotFoundError } from '@/components/QueryState'

/** dForge's state of a run, a job or a step. */
export type ActionState = 'blocked' | 'waiting' | 'running' | 'success' | 'failure' | 'cancelled' | 'skipped'

export const STATES: readonly ActionState[] = ['blocked', 'waiting', 'running', 'success', 'failure', 'cancelled', 'skipped']

/** Whether a run, job or step in state has ended (nothing about it changes any more). */
export const hasEnded = (state: ActionState) => state === 'success' || state === 'failure' || state === 'cancelled' || state === 'skipped'

export interface Run {
  id: number
  run_number: number
  display_title: string
  /** The workflow's file name, e.g. "ci.yml". */
  path: string
  event: string
  head_sha: string
  head_branch: string
  status: string
  conclusion?: string
  state: ActionState
  actor?: Pick<User, 'login' | 'avatar_url'> | null
  trigger_actor?: Pick<User, 'login' | 'avatar_url'> | null
  started_at?: string | null
  completed_at?: string | null
  created_at: string
  html_url: string
  url?: string
  /** The parser's message when the workflow is malformed; "" otherwise. */
  error?: string
  /** A first-time contributor's pull request from a fork: it runs once a writer approves it. */
  need_approval?: boolean
  /** The writer who approved it, in whose name its statuses are posted. */
  approved_by?: Pick<User, 'login' | 'avatar_url'> | null
}

/** Whether run still waits for a writer's approval before any of its jobs runs. */
export const awaitsApproval = (run: Run) => !!run.need_approval && !run.approved_by && !hasEnded(run.state)

export interface Step {
  number: number
  name: string
  status: string
  conclusion?: string
  state: ActionState
  started_at?: string | null
  completed_at?: string | null
  /** The step's log is rows [log_index, log_index + log_length) of its job's log. */
  log_index: number
  log_length: number
}

export interface Job {
  id: number
  run_id: number
  name: string
  labels?: string[]
  /** The keys of the jobs this one waits for. */
  needs?: string[]
  /** The job's id in the workflow (matrix jobs share it). */
  key?: string
  status: string
  conclusion?: string
  state: ActionState
  started_at?: string | null
  completed_at?: string | null
  runner_id?: number
  steps?: Step[]
  log_rows?: number
}

export interface LogRow {
  index: number
  time: string
  content: string
}

export interface Runner {
  id: number
  name: string
  status: 'online' | 'offline' | 'idle' | 'active'
  busy: boolean
  labels: { name: string }[]
  version?: string
  last_online?: string | null
}

export interface Secret {
  name: string
  created_at?: string
}

export interface Variable {
  name: string
  data: string
}

export interface Workflow {
  id: string
  name: string
  path: string
  state: string
  badge_url?: string
}

export interface RunFilter {
  workflow?: string
  branch?: string
  event?: string
  status?: string
  actor?: string
}

const enc = encodeURIComponent
export const actionsApi = (owner: string, repo: string) => `${repoApi(owner, repo)}/actions`

/** Whether the viewer may start, cancel and re-run runs: the repository's writers (its permissions say), and its owner. */
export function canWrite(repo: Repository, login: string | undefined): boolean {
  const p = repo.permissions
  return Boolean(login) && (Boolean(p?.push || p?.maintain || p?.admin) || isOwner(repo, login))
}

/** The web page of a run. */
export const runHref = (owner: string, repo: string, id: number) => `/${enc(owner)}/${enc(repo)}/actions/runs/${id}`

export const actionsKeys = {
  all: (owner: string, repo: string) => ['repo', owner.toLowerCase(), repo.toLowerCase(), 'actions'] as const,
  run: (owner: string, repo: string, id: number) => [...actionsKeys.all(owner, repo), 'run', id] as const,
  jobs: (owner: string, repo: string, id: number) => [...actionsKeys.all(owner, repo), 'run', id, 'jobs'] as const,
  log: (owner: string, repo: string, job: number) => [...actionsKeys.all(owner, repo), 'log', job] as const,
}

async function listRuns(owner: string, repo: string, filter: RunFilter, page: number, limit: number): Promise<Page<Run>> {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v)
  q.set('page', String(page))
  q.set('limit', String(limit))
  const res = await apiFetch(`${actionsApi(owner, repo)}/runs?${q}`)
  if (res.status === 404) throw new NotFoundError('not found: runs')
  if (!res.ok) throw await apiError(res)
  const body = (await res.json()) as { workflow_runs: Run[] | null; total_count?: number }
  const header = res.headers.get('X-Total-Count')
  const total = header !== null ? Number(header) : (body.total_count ?? null)
  return { items: body.workflow_runs ?? [], total }
}

export function useRuns(owner: string, repo: string, filter: RunFilter, page: number, limit: number) {
  return useQuery({
    queryKey: [...actionsKeys.all(owner, repo), 'runs', filter, page, limit],
    queryFn: () => listRuns(owner, repo, filter, page, limit),
    placeholderData: keepPreviousData,
    // While a listed run goes on, its state on the list follows.
    refetchInterval: (q) => (q.state.data?.items.some((r) => !hasEnded(r.state)) ? LIST_POLL_MS : false),
  })
}

const LIST_POLL_MS = 10_000

/** Starts a workflow that has on.workflow_dispatch, at ref, with its inputs. */
export function useDispatch(owner: string, repo: string, file: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: { ref: string; inputs: Record<string, string> }) => postJSON<unknown>(`${actionsApi(owner, repo)}/workflows/${enc(file)}/dispatches`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: [...actionsKeys.all(owner, repo), 'runs'] }),
  })
}

/** The image of a workflow's latest state on a branch, for READMEs (served outside /api). */
export const badgeHref = (owner: string, repo: string, file: string, branch: string) =>
  `/${enc(owner)}/${enc(repo)}/actions/workflows/${enc(file)}/badge.svg?branch=${enc(branch)}`

export function useWorkflows(owner: string, repo: string) {
  return useQuery({
    queryKey: [...actionsKeys.all(owner, repo), 'workflows'],
    queryFn: async () => (await getJSON<{ workflows: Workflow[] | null }>(`${actionsApi(owner, repo)}/workflows`)).workflows ?? [],
    retry: false,
  })
}

/** How often the run page asks again when the stream cannot be followed. */
const POLL_MS = 3000

/** GET JSON, a 404 as NotFoundError: the pages say "not found" and nothing asks again. */
async function getFound<T>(path: string): Promise<T> {
  try {
    return await getJSON<T>(path)
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw new NotFoundError(`not found: ${path}`)
    throw err
  }
}

export function useRun(owner: string, repo: string, id: number, poll: boolean) {
  return useQuery({
    queryKey: actionsKeys.run(owner, repo, id),
    queryFn: () => getFound<Run>(`${actionsApi(owner, repo)}/runs/${id}`),
    retry: retryUnlessNotFound,
    refetchInterval: (q) => (poll && !q.state.error && !(q.state.data && hasEnded(q.state.data.state)) ? POLL_MS : false),
  })
}

/** The run's jobs; polled (poll) until the run and each of its jobs have ended. */
export function useJobs(owner: string, repo: string, id: number, poll: boolean, runEnded: boolean) {
  return useQuery({
    queryKey: actionsKeys.jobs(owner, repo, id),
    queryFn: async () => (await getFound<{ jobs: Job[] | null }>(`${actionsApi(owner, repo)}/runs/${id}/jobs`)).jobs ?? [],
    retry: retryUnlessNotFound,
    refetchInterval: (q) => (poll && !q.state.error && (!runEnded || q.state.data?.some((j) => !hasEnded(j.state))) ? POLL_MS : false),
  })
}

/** A file a job uploaded (actions/upload-artifact@v4): Gitea's ActionArtifact with dForge's cid. */
export interface Artifact {
  id: number
  name: string
  size_in_bytes: number
  archive_download_url: string
  expired: boolean
  expires_at: string
  created_at: string
  /** Its UnixFS root in the node's blockstore: a public repository's only. */
  cid: string
}

/** The run's artifacts; asked again while the run goes on, and once more when it ends. */
export function useArtifacts(owner: string, repo: string, id: number, runEnded: boolean) {
  return useQuery({
    queryKey: [...actionsKeys.run(owner, repo, id), 'artifacts', runEnded],
    queryFn: async () => {
      try {
        return (await getJSON<{ artifacts: Artifact[] | null }>(`${actionsApi(owner, repo)}/runs/${id}/artifacts`)).artifacts ?? []
      } catch (err) {
        // The run is there (the page shows it): a 404 here is a node without artifacts, which has none to list.
        if (err instanceof NotFoundError) return []
        throw err
      }
    },
    refetchInterval: runEnded ? false : LIST_POLL_MS,
  })
}

/** A job's log as far as it is known: rows by index, and whether all have come. */
export interface JobLog {
  rows: LogRow[]
  done: boolean
}

/** Adds rows to a log, each index once, in order. */
export function mergeRows(log: JobLog | undefined, rows: LogRow[], done = false): JobLog {
  const byIndex = new Map((log?.rows ?? []).map((r) => [r.index, r]))
  for (const r of rows) byIndex.set(r.index, r)
  return { rows: [...byIndex.values()].sort((a, b) => a.index - b.index), done: done || (log?.done ?? false) }
}

const LOG_PAGE = 1000

/**
 * A job's log rows. While the run's stream is followed, the stream writes
 * them into this query's cache and nothing is fetched; otherwise the JSON
 * endpoint is read from the first row not yet held, and again every few
 * seconds until the job ends.
 */
export function useJobLog(owner: string, repo: string, job: Job | undefined, fetchRows: boolean) {
  const client = useQueryClient()
  const id = job?.id ?? 0
  const key = actionsKeys.log(owner, repo, id)
  return useQuery({
    queryKey: key,
    queryFn: async () => {
      let log = client.getQueryData<JobLog>(key)
      for (let from = log?.rows.length ?? 0; ; ) {
        const page = await getJSON<{ rows: LogRow[] | null; next: number; done: boolean }>(`${actionsApi(owner, repo)}/jobs/${id}/log?from=${from}&limit=${LOG_PAGE}`)
        log = mergeRows(log, page.rows ?? [], page.done)
        if (page.done || !page.rows?.length || page.next <= from) return log
        from = page.next
      }
    },
    enabled: fetchRows && id > 0,
    refetchInterval: (q) => (fetchRows && job && !hasEnded(job.state) && !q.state.data?.done ? POLL_MS : false),
  })
}

export const logDownloadHref = (owner: string, repo: string, job: number) => `${actionsApi(owner, repo)}/jobs/${job}/logs`

/** How the run page hears of changes: the live stream, polling once the stream failed, or neither once the run ended. */
export type Live = 'stream' | 'poll' | 'ended'

/**
 * Follows the run's event stream (server-sent events, with the session
 * cookie as the notification stream does) and writes each run, job and log
 * event into the queries the page reads. When the stream cannot be opened
 * or drops before its end event, the page polls the JSON endpoints instead.
 */
export function useRunStream(owner: string, repo: string, id: number, enabled: boolean): Live {
  const client = useQueryClient()
  const [live, setLive] = useState<Live>(() => (typeof EventSource === 'undefined' ? 'poll' : 'stream'))
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    const source = new EventSource(`${actionsApi(owner, repo)}/runs/${id}/stream`, { withCredentials: true })
    const parse = <T,>(e: Event): T | null => {
      try {
        return JSON.parse((e as MessageEvent<string>).data) as T
      } catch {
        return null // a malformed event changes nothing; the next one corrects it
      }
    }
    const onRun = (e: Event) => {
      const run = parse<Run>(e)
      if (run) client.setQueryData(actionsKeys.run(owner, repo, id), run)
    }
    const onJob = (e: Event) => {
      const job = parse<Job>(e)
      if (!job) return
      client.setQueryData<Job[]>(actionsKeys.jobs(owner, repo, id), (jobs = []) =>
        jobs.some((j) => j.id === job.id) ? jobs.map((j) => (j.id === job.id ? job : j)) : [...jobs, job],
      )
    }
    const onLog = (e: Event) => {
      const ev = parse<{ job: number; rows: LogRow[] | null }>(e)
      if (!ev) return
      client.setQueryData<JobLog>(actionsKeys.log(owner, repo, ev.job), (log) => mergeRows(log, ev.rows ?? []))
    }
    const onEnd = () => {
      source.close()
      // Every row was sent: each job's log is complete.
      for (const job of client.getQueryData<Job[]>(actionsKeys.jobs(owner, repo, id)) ?? []) {
        client.setQueryData<JobLog>(actionsKeys.log(owner, repo, job.id), (log) => mergeRows(log, [], true))
      }
      setLive('ended')
    }
    const onError = () => {
      source.close()
      setLive((l) => (l === 'ended' ? l : 'poll'))
    }
    source.addEventListener('run', onRun)
    source.addEventListener('job', onJob)
    source.addEventListener('log', onLog)
    source.addEventListener('end', onEnd)
    source.addEventListener('error', onError)
    return () => {
      source.removeEventListener('run', onRun)
      source.removeEventListener('job', onJob)
      source.removeEventListener('log', onLog)
      source.removeEventListener('end', onEnd)
      source.removeEventListener('error', onError)
      source.close()
    }
  }, [enabled, owner, repo, id, client])
  return enabled ? live : 'poll'
}

export function useCancelRun(owner: string, repo: string, id: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => postJSON<unknown>(`${actionsApi(owner, repo)}/runs/${id}/cancel`),
    onSettled: () => client.invalidateQueries({ queryKey: actionsKeys.run(owner, repo, id) }),
  })
}

/** Approves a first-time contributor's run: its jobs go to runners. */
export function useApproveRun(owner: string, repo: string, id: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => postJSON<Run>(`${actionsApi(owner, repo)}/runs/${id}/approve`),
    onSuccess: (run) => client.setQueryData(actionsKeys.run(owner, repo, id), run),
    onSettled: () => client.invalidateQueries({ queryKey: actionsKeys.run(owner, repo, id) }),
  })
}

/** Re-runs every job, or only the failed ones; onDone gets the new run. */
export function useRerun(owner: string, repo: string, id: number, onDone: (run: Run) => void) {
  return useMutation({
    mutationFn: (which: 'all' | 'failed') => postJSON<Run>(`${actionsApi(owner, repo)}/runs/${id}/${which === 'all' ? 'rerun' : 'rerun-failed-jobs'}`),
    onSuccess: onDone,
  })
}

// --- settings: the owner's runners, secrets and variables ---

function useInvalidate(key: readonly unknown[]) {
  const client = useQueryClient()
  return () => client.invalidateQueries({ queryKey: key })
}

const settingsKey = (owner: string, repo: string, what: string) => [...actionsKeys.all(owner, repo), what] as const

export function useRunners(owner: string, repo: string) {
  return useQuery({
    queryKey: settingsKey(owner, repo, 'runners'),
    queryFn: async () => (await getJSON<{ runners: Runner[] | null }>(`${actionsApi(owner, repo)}/runners`)).runners ?? [],
  })
}

export function useDeleteRunner(owner: string, repo: string) {
  const invalidate = useInvalidate(settingsKey(owner, repo, 'runners'))
  return useMutation({ mutationFn: (id: number) => deleteJSON(`${actionsApi(owner, repo)}/runners/${id}`), onSuccess: invalidate })
}

export function useRegistrationToken(owner: string, repo: string) {
  return useMutation({ mutationFn: () => postJSON<{ token: string }>(`${actionsApi(owner, repo)}/runners/registration-token`) })
}

export function useSecrets(owner: string, repo: string) {
  return useQuery({
    queryKey: settingsKey(owner, repo, 'secrets'),
    queryFn: async () => (await getJSON<Secret[] | null>(`${actionsApi(owner, repo)}/secrets`)) ?? [],
  })
}

export function usePutSecret(owner: string, repo: string) {
  const invalidate = useInvalidate(settingsKey(owner, repo, 'secrets'))
  return useMutation({
    mutationFn: ({ name, data }: { name: string; data: string }) => putJSON<unknown>(`${actionsApi(owner, repo)}/secrets/${enc(name)}`, { data }),
    onSuccess: invalidate,
  })
}

export function useDeleteSecret(owner: string, repo: string) {
  const invalidate = useInvalidate(settingsKey(owner, repo, 'secrets'))
  return useMutation({ mutationFn: (name: string) => deleteJSON(`${actionsApi(owner, repo)}/secrets/${enc(name)}`), onSuccess: invalidate })
}

export function useVariables(owner: string, repo: string) {
  return useQuery({
    queryKey: settingsKey(owner, repo, 'variables'),
    queryFn: async () => (await getJSON<Variable[] | null>(`${actionsApi(owner, repo)}/variables`)) ?? [],
  })
}

/** Adds a variable (editing null) or changes one, renaming it when name differs from editing. */
export function useSaveVariable(owner: string, repo: string) {
  const invalidate = useInvalidate(settingsKey(owner, repo, 'variables'))
  return useMutation({
    mutationFn: ({ editing, name, value }: { editing: string | null; name: string; value: string }) =>
      editing === null
        ? postJSON<unknown>(`${actionsApi(owner, repo)}/variables/${enc(name)}`, { value })
        : putJSON<unknown>(`${actionsApi(owner, repo)}/variables/${enc(editing)}`, editing === name ? { value } : { value, name }),
    onSuccess: invalidate,
  })
}

export function useDeleteVariable(owner: string, repo: string) {
  const invalidate = useInvalidate(settingsKey(owner, repo, 'variables'))
  return useMutation({ mutationFn: (name: string) => deleteJSON(`${actionsApi(owner, repo)}/variables/${enc(name)}`), onSuccess: invalidate })
}

/** Gitea's rule for secret and variable names: letters, digits and _, not starting with a digit, GITHUB_ or GITEA_. */
export function nameProblem(name: string): 'required' | 'chars' | 'reserved' | null {
  if (name === '') return 'required'
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return 'chars'
  if (/^(GITHUB_|GITEA_)/i.test(name)) return 'reserved'
  return null
}
