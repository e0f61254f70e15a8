import { useTranslation } from 'react-i18next'
import { useId } from 'react'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { type Repository, repoHref } from '@/lib/forge/api'
import { RepoPage } from '@/features/repositories'
import { Paged } from '@/components/Lists'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { type IssueStateFilter, useIssues, useLabels } from './api'
import { IssueRow } from './IssueRow'
import { PinnedIssues } from './PinnedIssues'
import './issues.css'

export const ISSUES_PER_PAGE = 25
const STATES: IssueStateFilter[] = ['open', 'closed', 'all']

/** A repository's issues: open, closed or all, by label and text, a page at a time. */
export default function IssueListScreen() {
  return <RepoPage section="issues">{(repo) => <IssueList repo={repo} />}</RepoPage>
}

function IssueList({ repo }: { repo: Repository }) {
  const { t } = useTranslation('issues')
  const { t: tt } = useTranslation('tracker')
  const id = useId()
  const o = repo.owner.login
  const [stateParam, setState] = useUrlParam('state', 'open')
  const [q, setQ] = useUrlParam('q')
  const [label, setLabel] = useUrlParam('labels')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const state = (STATES as string[]).includes(stateParam) ? (stateParam as IssueStateFilter) : 'open'
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const issues = useIssues(o, repo.name, { state, q: q.trim(), labels: label }, page, ISSUES_PER_PAGE)
  const labels = useLabels(o, repo.name)
  useDocumentTitle(t('list.title', { repo: repo.full_name }))
  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v)
    setPage('1')
  }
  return (
    <div className="stack">
      <PageHeader
        title={t('list.heading')}
        actions={
          <>
            <PreloadLink className="btn btn-outline btn-md" to={repoHref.section(o, repo.name, 'milestones')}>
              {tt('milestones.heading')}
            </PreloadLink>
            <PreloadLink className="btn btn-primary btn-md" to={repoHref.section(o, repo.name, 'issues/new')}>
              {t('list.new')}
            </PreloadLink>
          </>
        }
      />
      <PinnedIssues repo={repo} />
      <div className="issue-filters">
        <div className="button-row" role="group" aria-label={t('list.stateFilter')}>
          {STATES.map((s) => (
            <Button key={s} size="sm" variant={state === s ? 'secondary' : 'ghost'} aria-pressed={state === s} onClick={() => reset(setState)(s)}>
              {t(`list.states.${s}`)}
            </Button>
          ))}
        </div>
        <form role="search" className="issue-search" aria-label={t('list.search')} onSubmit={(e) => e.preventDefault()}>
          <label htmlFor={`${id}-q`} className="sr-only">
            {t('list.search')}
          </label>
          <Input id={`${id}-q`} className="input" type="search" value={q} placeholder={t('list.searchPlaceholder')} maxLength={200} onChange={(e) => reset(setQ)(e.target.value)} />
          <label htmlFor={`${id}-l`} className="sr-only">
            {t('list.label')}
          </label>
          <Select id={`${id}-l`} className="input" value={label} onChange={(e) => reset(setLabel)(e.target.value)}>
            <option value="">{t('list.anyLabel')}</option>
            {(labels.data ?? []).map((l) => (
              <option key={l.id} value={l.name}>
                {l.name}
              </option>
            ))}
          </Select>
        </form>
      </div>
      <Paged query={issues} page={page} onPage={(p) => setPage(String(p))} limit={ISSUES_PER_PAGE} label={t('list.heading')} empty={t('list.empty')}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState message={t('list.empty')} />
          ) : (
            <ul className="issue-list plain-list">
              {items.map((issue) => (
                <IssueRow key={issue.id} issue={issue} href={`${repoHref.section(o, repo.name, 'issues')}/${issue.number}`} />
              ))}
            </ul>
          )
        }
      </Paged>
    </div>
  )
}

