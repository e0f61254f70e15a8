import { type KeyboardEvent, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { Job } from './api'
import { jobColumns } from './jobColumns'
import { StateIcon } from './StateIcon'

/**
 * The run's jobs in columns by their needs (a job stands right of what it
 * waits for). Each job is a button: Tab reaches them, the arrow keys move
 * between them, and choosing one shows its steps.
 */
export function JobsGraph({ jobs, selected, onSelect }: { jobs: Job[]; selected: number; onSelect: (job: Job) => void }) {
  const { t } = useTranslation('actions')
  const columns = jobColumns(jobs)
  const ref = useRef<HTMLDivElement>(null)
  const move = (e: KeyboardEvent<HTMLButtonElement>, col: number, row: number) => {
    const next: Record<string, [number, number]> = {
      ArrowDown: [col, row + 1],
      ArrowUp: [col, row - 1],
      ArrowRight: [col + 1, Math.min(row, (columns[col + 1]?.length ?? 1) - 1)],
      ArrowLeft: [col - 1, Math.min(row, (columns[col - 1]?.length ?? 1) - 1)],
    }
    const to = next[e.key]
    if (!to) return
    const button = ref.current?.querySelector<HTMLButtonElement>(`[data-cell="${to[0]}-${to[1]}"]`)
    if (!button) return
    e.preventDefault()
    button.focus()
  }
  return (
    <div className="action-graph" ref={ref} role="group" aria-label={t('graph.label')}>
      {columns.map((column, c) => (
        <ol key={c} className="plain-list action-graph-column" aria-label={t('graph.column', { n: c + 1 })}>
          {column.map((job, r) => (
            <li key={job.id}>
              <button
                type="button"
                className="action-job"
                data-cell={`${c}-${r}`}
                aria-pressed={job.id === selected}
                onClick={() => onSelect(job)}
                onKeyDown={(e) => move(e, c, r)}
              >
                <StateIcon state={job.state} /> <span>{job.name}</span>
                {job.needs && job.needs.length > 0 && (
                  <>
                    {' '}
                    <span className="muted action-job-needs">{t('graph.needs', { jobs: job.needs.join(', ') })}</span>
                  </>
                )}
              </button>
            </li>
          ))}
        </ol>
      ))}
    </div>
  )
}
