import type { Job, LogRow, Step } from './api'

// ANSI escape sequences (colours, cursor moves) that runners' tools print:
// the page shows the text without them.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, 'g')

export const stripAnsi = (s: string) => s.replace(ANSI, '')

/** A part of a job's log: the rows before the first step ("Set up job"), a step's, or those after the last ("Complete job"). */
export interface LogSection {
  key: string
  /** The step, or null for the job's set-up and completion rows. */
  step: Step | null
  kind: 'setup' | 'step' | 'complete'
  rows: LogRow[]
}

/**
 * Splits a job's rows into its steps' sections. A step's rows are
 * [log_index, log_index + log_length); while a step runs its length lags
 * behind the stream, so a row past every finished range goes to the step
 * that started last before it, if that step is still running.
 */
export function logSections(job: Job, rows: LogRow[]): LogSection[] {
  const steps = [...(job.steps ?? [])].sort((a, b) => a.number - b.number)
  const setup: LogSection = { key: 'setup', step: null, kind: 'setup', rows: [] }
  const complete: LogSection = { key: 'complete', step: null, kind: 'complete', rows: [] }
  const bySteps = steps.map((step): LogSection => ({ key: `step-${step.number}`, step, kind: 'step', rows: [] }))
  const started = steps.filter((s) => s.log_length > 0 || s.state === 'running')
  const first = started.length ? Math.min(...started.map((s) => s.log_index)) : Infinity
  for (const row of rows) {
    const i = steps.findIndex((s) => row.index >= s.log_index && row.index < s.log_index + s.log_length)
    if (i >= 0) {
      bySteps[i].rows.push(row)
      continue
    }
    if (row.index < first) {
      setup.rows.push(row)
      continue
    }
    const running = steps.findLastIndex((s) => s.state === 'running' && s.log_index <= row.index)
    if (running >= 0) bySteps[running].rows.push(row)
    else complete.rows.push(row)
  }
  return [setup, ...bySteps, complete].filter((s) => s.kind === 'step' || s.rows.length > 0)
}

/** Whether a log line matches the search (case-insensitive, on the text shown). */
export const matches = (content: string, query: string) => query !== '' && stripAnsi(content).toLowerCase().includes(query.toLowerCase())
