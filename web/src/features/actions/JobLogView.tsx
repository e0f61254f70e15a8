import { Fragment, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { QueryState } from '@/components/QueryState'
import type { Repository } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { hasEnded, type Job, type Live, type LogRow, logDownloadHref, useJobLog } from './api'
import { type LogSection, logSections, matches, stripAnsi } from './logSections'
import { StateIcon } from './StateIcon'

/** A job's steps, each with its log lines (folded but for the failed or running one), a search over the lines and the log's download. */
export function JobLogView({ repo, job, live }: { repo: Repository; job: Job; live: Live }) {
  const { t } = useTranslation('actions')
  const log = useJobLog(repo.owner.login, repo.name, job, live === 'poll')
  const [query, setQuery] = useState('')
  // Until the first rows come (the stream's or the endpoint's), the steps show without lines.
  const rows = log.data?.rows ?? []
  const steps = (
    <ol className="plain-list action-steps">
      {logSections(job, rows).map((section) => (
        <StepLog key={section.key} section={section} jobName={job.name} query={query} jobEnded={hasEnded(job.state)} />
      ))}
    </ol>
  )
  return (
    <section className="action-log" aria-label={t('log.label', { job: job.name })}>
      <div className="action-log-head">
        <h2>
          <StateIcon state={job.state} /> {job.name}
        </h2>
        <div className="action-log-tools">
          <Field label={t('log.search')} labelHidden>
            <Input type="search" value={query} placeholder={t('log.search')} onChange={(e) => setQuery(e.target.value)} />
          </Field>
          <a href={logDownloadHref(repo.owner.login, repo.name, job.id)} download>
            {t('log.download')}
          </a>
        </div>
      </div>
      {query && (
        <p className="muted" role="status">
          {t('log.matches', { count: rows.filter((r) => matches(r.content, query)).length })}
        </p>
      )}
      {live === 'poll' && !log.data ? <QueryState query={log}>{() => steps}</QueryState> : steps}
    </section>
  )
}

function StepLog({ section, jobName, query, jobEnded }: { section: LogSection; jobName: string; query: string; jobEnded: boolean }) {
  const { t } = useTranslation('actions')
  const id = useId()
  const state = section.step?.state ?? (section.kind === 'setup' || jobEnded ? 'success' : 'running')
  const [open, setOpen] = useState<boolean | null>(null)
  const numbered = section.rows.map((row, i) => ({ row, n: i + 1 }))
  const hits = query ? numbered.filter((l) => matches(l.row.content, query)) : numbered
  // Unless the reader chose, a step is open when it failed or runs, or has lines matching the search.
  const expanded = open ?? (query ? hits.length > 0 : state === 'failure' || state === 'running')
  const name = section.step ? section.step.name || t('log.step', { n: section.step.number }) : t(`log.${section.kind}`)
  return (
    <li className="action-step">
      <button type="button" className="action-step-toggle" aria-expanded={expanded} aria-controls={id} onClick={() => setOpen(!expanded)}>
        <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> <StateIcon state={state} /> <span>{name}</span>
        {query && <span className="badge">{t('log.stepMatches', { count: hits.length })}</span>}
      </button>
      {expanded && (
        <div id={id}>
          {hits.length === 0 ? (
            <p className="muted action-log-empty">{query ? t('log.noMatch') : t('log.noLines')}</p>
          ) : (
            <table className="action-log-lines" aria-label={t('log.lines', { step: name, job: jobName })}>
              <tbody>
                {hits.map((l) => (
                  <LogLine key={l.row.index} row={l.row} number={l.n} query={query} />
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </li>
  )
}

function LogLine({ row, number, query }: { row: LogRow; number: number; query: string }) {
  const fmt = useForgeFormat()
  const text = stripAnsi(row.content)
  return (
    <tr>
      <td className="action-log-number">{number}</td>
      <td className="action-log-time">
        <time dateTime={row.time} title={fmt.exact(row.time)}>
          {clock(row.time)}
        </time>
      </td>
      <td className="action-log-text">{query ? <Highlighted text={text} query={query} /> : text}</td>
    </tr>
  )
}

/** hh:mm:ss of an RFC 3339 time, as the runner wrote it (UTC). */
function clock(iso: string): string {
  const m = /T(\d\d:\d\d:\d\d)/.exec(iso)
  return m ? m[1] : iso
}

function Highlighted({ text, query }: { text: string; query: string }) {
  const lower = text.toLowerCase()
  const q = query.toLowerCase()
  const parts: { s: string; hit: boolean }[] = []
  let at = 0
  for (let i = lower.indexOf(q); i >= 0 && q; i = lower.indexOf(q, at)) {
    if (i > at) parts.push({ s: text.slice(at, i), hit: false })
    parts.push({ s: text.slice(i, i + q.length), hit: true })
    at = i + q.length
  }
  parts.push({ s: text.slice(at), hit: false })
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>{p.hit ? <mark>{p.s}</mark> : p.s}</Fragment>
      ))}
    </>
  )
}
