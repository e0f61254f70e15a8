import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { Tabs } from '@/components/Tabs'
import { NoDescription } from '@/features/issues/EmptyStates'
import { userQuery } from '@/features/users/api'
import { Paged } from '@/features/wallet/lists'
import { retryUnlessNotFound } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { isRepositorySort, type Repository, repoHref, type RepositorySort, SORTS, useRepoSearch } from './api'
import { useForgeFormat } from './format'
import './repositories.css'

export const EXPLORE_PAGE_SIZE = 20
const TABS = ['repositories', 'users'] as const
type ExploreTab = (typeof TABS)[number]

/** Explore: search and sort the node's repositories, or look a user up by name. */
export default function ExploreScreen() {
  const { t } = useTranslation('repositories')
  useDocumentTitle(t('explore.title'))
  const [tabParam, setTab] = useUrlParam('tab', 'repositories')
  const tab: ExploreTab = tabParam === 'users' ? 'users' : 'repositories'
  return (
    <div className="stack">
      <PageHeader
        title={t('explore.title')}
        lead={t('explore.lead')}
        actions={
          <PreloadLink className="btn btn-primary btn-md" to="/new">
            {t('explore.newRepository')}
          </PreloadLink>
        }
      />
      <Tabs label={t('explore.tabs')} tabs={TABS.map((id) => ({ id, label: t(`explore.tab.${id}`) }))} selected={tab} onSelect={setTab}>
        {tab === 'users' ? <UserLookup /> : <RepositorySearch />}
      </Tabs>
    </div>
  )
}

/** value, once it has stopped changing for ms: the search asks the server when typing pauses. */
function useSettled<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const id = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(id)
  }, [value, ms])
  return settled
}

function RepositorySearch() {
  const { t } = useTranslation('repositories')
  const id = useId()
  const [query, setQuery] = useUrlParam('q')
  const [sortParam, setSort] = useUrlParam('sort', 'updated')
  const [pageParam, setPage] = useUrlParam('page', '1')
  // A hand-edited ?sort= that we do not know falls back to the default.
  const sort: RepositorySort = isRepositorySort(sortParam) ? sortParam : 'updated'
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const q = useSettled(query.trim())
  const results = useRepoSearch(q, sort, page, EXPLORE_PAGE_SIZE)
  const onQuery = (value: string) => {
    setQuery(value)
    setPage('1')
  }
  return (
    <div className="stack">
      <form role="search" aria-label={t('explore.filters')} className="explore-filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-q`}>{t('explore.search.label')}</label>
          <input id={`${id}-q`} type="search" value={query} placeholder={t('explore.search.placeholder')} maxLength={200} onChange={(e) => onQuery(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-sort`}>{t('explore.sort.label')}</label>
          <select id={`${id}-sort`} value={sort} onChange={(e) => setSort(e.target.value)}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`explore.sort.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <Paged
        query={results}
        page={page}
        onPage={(p) => setPage(String(p))}
        limit={EXPLORE_PAGE_SIZE}
        label={t('explore.listLabel')}
        empty={q ? t('explore.noMatch', { query: q }) : t('explore.empty')}
      >
        {(repos) => <RepositoryList repositories={repos} />}
      </Paged>
    </div>
  )
}

export function RepositoryList({ repositories }: { repositories: Repository[] }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  return (
    <ul className="repository-list stack" aria-label={t('explore.listLabel')}>
      {repositories.map((r) => (
        <Card as="li" key={r.id}>
          <h2>
            <PreloadLink to={repoHref.home(r.owner.login, r.name)}>{r.full_name}</PreloadLink> {r.private && <span className="badge">{t('visibility.private')}</span>}
          </h2>
          {r.description ? <p>{r.description}</p> : <NoDescription />}
          <p className="muted repo-stats">
            <span>{t('explore.stars', { count: r.stars_count, n: fmt.count(r.stars_count) })}</span>
            <span>{t('explore.forks', { count: r.forks_count, n: fmt.count(r.forks_count) })}</span>
            <span title={r.updated_at}>{t('explore.updated', { when: fmt.ago(r.updated_at) })}</span>
          </p>
        </Card>
      ))}
    </ul>
  )
}

/** Users are found by their exact name (GET /api/v1/users/{name}). */
function UserLookup() {
  const { t } = useTranslation('repositories')
  const id = useId()
  const [query, setQuery] = useUrlParam('q')
  const [draft, setDraft] = useState(query)
  const name = query.trim()
  const user = useQuery({ ...userQuery(name), enabled: name !== '', retry: retryUnlessNotFound })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setQuery(draft.trim())
  }
  return (
    <div className="stack">
      <form role="search" aria-label={t('explore.users.filters')} className="explore-filters" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-u`}>{t('explore.users.label')}</label>
          <input id={`${id}-u`} type="search" value={draft} maxLength={39} autoComplete="off" onChange={(e) => setDraft(e.target.value)} />
        </div>
        <button type="submit" className="btn btn-primary btn-md explore-user-submit">
          {t('explore.users.find')}
        </button>
      </form>
      {name === '' ? (
        <p className="muted">{t('explore.users.hint')}</p>
      ) : user.error instanceof NotFoundError ? (
        <EmptyState message={t('explore.users.none', { name })} />
      ) : (
        <QueryState query={user}>
          {(u) => (
            <Card as="section" aria-label={u.login}>
              <h2>
                <PreloadLink to={`/user/${encodeURIComponent(u.login)}`}>{u.full_name || u.login}</PreloadLink>
              </h2>
              <p className="muted">@{u.login}</p>
              {u.description && <p>{u.description}</p>}
            </Card>
          )}
        </QueryState>
      )}
    </div>
  )
}
