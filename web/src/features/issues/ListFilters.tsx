import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import type { Repository, User } from '@/lib/forge/api'
import { useUrlParam } from '@/lib/useUrlParam'
import { type IssueFilter, ISSUE_SORTS, type IssueSort, type IssueStateFilter, type Label, useAssignees, useLabels } from './api'
import { LabelBadge } from './CommentCard'
import { useAllMilestones } from './tracker'
import './issues.css'

const STATES: IssueStateFilter[] = ['open', 'closed', 'all']

/**
 * The filters of an issue or pull request list, kept in the URL's query
 * string (state, q, author, assignee, milestone, labels, sort, page) so a
 * reload, the history and a copied link all keep them. Any change but the
 * page's goes back to page 1.
 */
export function useListFilters() {
  const [stateParam, setState] = useUrlParam('state', 'open')
  const [q, setQ] = useUrlParam('q')
  const [author, setAuthor] = useUrlParam('author')
  const [assignee, setAssignee] = useUrlParam('assignee')
  const [milestone, setMilestone] = useUrlParam('milestone')
  const [labelsParam, setLabels] = useUrlParam('labels')
  const [sortParam, setSort] = useUrlParam('sort', 'newest')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const state = (STATES as string[]).includes(stateParam) ? (stateParam as IssueStateFilter) : 'open'
  const sort = (ISSUE_SORTS as readonly string[]).includes(sortParam) ? (sortParam as IssueSort) : 'newest'
  const labels = labelsParam
    .split(',')
    .map((l) => l.trim())
    .filter(Boolean)
  const firstPage =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v)
      setPage('1')
    }
  const active = q.trim() !== '' || author !== '' || assignee !== '' || milestone !== '' || labels.length > 0 || sort !== 'newest'
  return {
    state,
    q,
    author,
    assignee,
    milestone,
    labels,
    sort,
    page: Math.max(1, Number.parseInt(pageParam, 10) || 1),
    /** Whether anything narrows or reorders the list (the state tabs aside). */
    active,
    setState: firstPage(setState),
    setQ: firstPage(setQ),
    setAuthor: firstPage(setAuthor),
    setAssignee: firstPage(setAssignee),
    setMilestone: firstPage(setMilestone),
    setLabels: firstPage((l: string[]) => setLabels(l.join(','))),
    setSort: firstPage(setSort),
    setPage: (p: number) => setPage(String(p)),
    /** Drops every filter and the order; the state tab stays. */
    clear: () => {
      for (const set of [setQ, setAuthor, setAssignee, setMilestone, setLabels, setSort]) set('')
      setPage('1')
    },
  }
}

export type ListFilters = ReturnType<typeof useListFilters>

/** The API filter of the list f describes. */
export function issueFilterOf(f: ListFilters, type: 'issues' | 'pulls'): IssueFilter {
  return { state: f.state, type, q: f.q.trim(), labels: f.labels.join(','), milestone: f.milestone, author: f.author, assignee: f.assignee, sort: f.sort }
}

/** The state tabs of a list (open, closed, all); switching keeps every other filter. */
export function StateTabs({ filters, label }: { filters: ListFilters; label: string }) {
  const { t } = useTranslation('issues')
  return (
    <div className="button-row" role="group" aria-label={label}>
      {STATES.map((s) => (
        <Button key={s} size="sm" variant={filters.state === s ? 'secondary' : 'ghost'} aria-pressed={filters.state === s} onClick={() => filters.setState(s)}>
          {t(`list.states.${s}`)}
        </Button>
      ))}
    </div>
  )
}

/**
 * The filter bar above an issue or pull request list, as on GitHub and
 * Gitea: a search box, author, assignee, milestone, labels (several: an
 * item must carry them all) and the order, with "Clear filters" once any
 * is set.
 */
export function ListFilterBar({ repo, filters, kind }: { repo: Repository; filters: ListFilters; kind: 'issues' | 'pulls' }) {
  const { t } = useTranslation('issues')
  const id = useId()
  const o = repo.owner.login
  const people = useAssignees(o, repo.name)
  const milestones = useAllMilestones(o, repo.name)
  const names = (milestones.data ?? []).map((m) => m.title)
  if (filters.milestone && !names.includes(filters.milestone)) names.push(filters.milestone)
  return (
    <div className="issue-filter-bar">
      <form role="search" className="issue-search" aria-label={t(`filters.search.${kind}`)} onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={`${id}-q`} className="sr-only">
          {t(`filters.search.${kind}`)}
        </label>
        <Input
          id={`${id}-q`}
          className="input"
          type="search"
          value={filters.q}
          placeholder={t(`filters.search.${kind}`)}
          maxLength={200}
          onChange={(e) => filters.setQ(e.target.value)}
        />
      </form>
      <div className="issue-filter-controls" role="group" aria-label={t('filters.group')}>
        <datalist id={`${id}-people`}>
          {(people.data ?? []).map((u) => (
            <option key={u.id} value={u.login} />
          ))}
        </datalist>
        <UserFilter label={t('filters.author')} value={filters.author} people={people.data} listId={`${id}-people`} onChange={filters.setAuthor} />
        <UserFilter label={t('filters.assignee')} value={filters.assignee} people={people.data} listId={`${id}-people`} onChange={filters.setAssignee} />
        <Field label={t('filters.milestone')}>
          <Select className="input" value={filters.milestone} onChange={(e) => filters.setMilestone(e.target.value)}>
            <option value="">{t('filters.anyMilestone')}</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </Field>
        <LabelMenu repo={repo} selected={filters.labels} onChange={filters.setLabels} />
        <Field label={t('filters.sort')}>
          <Select className="input" value={filters.sort} onChange={(e) => filters.setSort(e.target.value)}>
            {ISSUE_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`filters.sorts.${s}`)}
              </option>
            ))}
          </Select>
        </Field>
        {filters.active && (
          <Button size="sm" variant="ghost" className="issue-filter-clear" onClick={filters.clear}>
            {t('filters.clear')}
          </Button>
        )}
      </div>
    </div>
  )
}

/**
 * A username filter: typed (with the repository's people suggested) and
 * applied on Enter, on leaving the field, or at once when a suggestion is
 * picked, so a half-typed name never reaches the server.
 */
function UserFilter({ label, value, people, listId, onChange }: { label: string; value: string; people?: User[]; listId: string; onChange: (v: string) => void }) {
  const { t } = useTranslation('issues')
  const [draft, setDraft] = useState(value)
  // The field follows the URL when it changes from outside (Clear filters).
  const [shown, setShown] = useState(value)
  if (shown !== value) {
    setShown(value)
    setDraft(value)
  }
  const apply = (v: string) => {
    if (v.trim() !== value) onChange(v.trim())
  }
  return (
    <Field label={label}>
      <Input
        className="input"
        type="text"
        value={draft}
        list={listId}
        placeholder={t('filters.anyone')}
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        onChange={(e) => {
          setDraft(e.target.value)
          if (people?.some((u) => u.login === e.target.value)) apply(e.target.value)
        }}
        onBlur={() => apply(draft)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            apply(draft)
          }
        }}
      />
    </Field>
  )
}

/** Labels, several at once: a disclosure of checkboxes (Escape or a click outside closes it). */
function LabelMenu({ repo, selected, onChange }: { repo: Repository; selected: string[]; onChange: (labels: string[]) => void }) {
  const { t } = useTranslation('issues')
  const labels = useLabels(repo.owner.login, repo.name)
  const menu = useRef<HTMLDetailsElement>(null)
  const all: Label[] = [...(labels.data ?? [])]
  for (const name of selected) {
    if (!all.some((l) => l.name === name)) all.push({ id: -all.length - 1, name, color: '888888', description: '', exclusive: false, is_archived: false, url: '', signer: '', delegation: '' })
  }
  // A click elsewhere closes the menu, as a menu does.
  useEffect(() => {
    const outside = (e: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(e.target as Node)) menu.current.open = false
    }
    document.addEventListener('mousedown', outside)
    return () => document.removeEventListener('mousedown', outside)
  }, [])
  const toggle = (name: string) => onChange(selected.includes(name) ? selected.filter((n) => n !== name) : [...selected, name])
  const close = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && menu.current?.open) {
      e.preventDefault()
      menu.current.open = false
      menu.current.querySelector('summary')?.focus()
    }
  }
  return (
    <details ref={menu} className="filter-menu" onKeyDown={close}>
      <summary className="btn btn-outline btn-sm">{selected.length > 0 ? t('filters.labelsCount', { count: selected.length }) : t('filters.labels')}</summary>
      <fieldset className="filter-menu-list card card-sm">
        <legend className="sr-only">{t('filters.labels')}</legend>
        {all.length === 0 && <p className="muted">{t('filters.noLabels')}</p>}
        {all.map((l) => (
          <label key={l.id} className="filter-menu-item">
            <Input type="checkbox" checked={selected.includes(l.name)} onChange={() => toggle(l.name)} /> <LabelBadge label={l} />
          </label>
        ))}
      </fieldset>
    </details>
  )
}
