import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { NoDescription } from '@/components/EmptyStates'
import { UserList, useUserSearch } from '@/features/search'
import { TopicList } from '@/features/topics'
import { Paged } from '@/components/Lists'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { isRepositorySort, type Repository, repoHref, type RepositorySort, SORTS, useRepoSearch } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import './repositories.css'

export const EXPLORE_PAGE_SIZE = 20
const TABS = ['repositories', 'users'] as const
type ExploreTab = (typeof TABS)[number]

/** Explore: search and sort the node's repositories, or search its users. */
export default function ExploreScreen() {
  const { t } = useTranslation('repositories')
  useDocumentTitle(t('explore.title'))
  const [tabParam, setTab] = useUrlParam('tab', 'repositories')
  const [, setPage] = useUrlParam('page', '1')
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
      <Tabs
        label={t('explore.tabs')}
        tabs={TABS.map((id) => ({ id, label: t(`explore.tab.${id}`) }))}
        selected={tab}
        onSelect={(id) => {
          setTab(id)
          setPage('1') // the other tab's list starts at its first page
        }}
      >
        {tab === 'users' ? <UserSearch /> : <RepositorySearch />}
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
  const { t: tt } = useTranslation('topics')
  const id = useId()
  const [query, setQuery] = useUrlParam('q')
  const [sortParam, setSort] = useUrlParam('sort', 'updated')
  const [pageParam, setPage] = useUrlParam('page', '1')
  // ?topic= (a repository's topic links here): only repositories that carry it.
  const [topic, setTopic] = useUrlParam('topic')
  // A hand-edited ?sort= that we do not know falls back to the default.
  const sort: RepositorySort = isRepositorySort(sortParam) ? sortParam : 'updated'
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const q = useSettled(query.trim())
  const results = useRepoSearch(q, sort, page, EXPLORE_PAGE_SIZE, { topic: topic.trim() || undefined })
  const onQuery = (value: string) => {
    setQuery(value)
    setPage('1')
  }
  return (
    <div className="stack">
      <form role="search" aria-label={t('explore.filters')} className="explore-filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('explore.search.label')}>
          <Input id={`${id}-q`} type="search" value={query} placeholder={t('explore.search.placeholder')} maxLength={200} onChange={(e) => onQuery(e.target.value)} />
        </Field>
        <Field label={t('explore.sort.label')}>
          <Select id={`${id}-sort`} value={sort} onChange={(e) => setSort(e.target.value)}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`explore.sort.${s}`)}
              </option>
            ))}
          </Select>
        </Field>
      </form>
      {topic.trim() && (
        <p className="topic-filter">
          {tt('filteredBy', { topic: topic.trim() })}{' '}
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setTopic('')
              setPage('1')
            }}
          >
            {tt('clearFilter')}
          </Button>
        </p>
      )}
      <Paged
        query={results}
        page={page}
        onPage={(p) => setPage(String(p))}
        limit={EXPLORE_PAGE_SIZE}
        label={t('explore.listLabel')}
        empty={topic.trim() ? tt('noRepositories', { topic: topic.trim() }) : q ? t('explore.noMatch', { query: q }) : t('explore.empty')}
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
          {r.topics && r.topics.length > 0 && <TopicList topics={r.topics} />}
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

/** The node's users, found by part of their username or full name as you type (GET /api/v1/users/search). */
function UserSearch() {
  const { t } = useTranslation('repositories')
  const id = useId()
  const [query, setQuery] = useUrlParam('q')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const q = useSettled(query.trim())
  const results = useUserSearch(q, page, EXPLORE_PAGE_SIZE)
  const onQuery = (value: string) => {
    setQuery(value)
    setPage('1')
  }
  return (
    <div className="stack">
      <form role="search" aria-label={t('explore.users.filters')} className="explore-filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('explore.users.label')}>
          <Input id={`${id}-u`} type="search" value={query} placeholder={t('explore.users.placeholder')} maxLength={200} autoComplete="off" onChange={(e) => onQuery(e.target.value)} />
        </Field>
      </form>
      <Paged
        query={results}
        page={page}
        onPage={(p) => setPage(String(p))}
        limit={EXPLORE_PAGE_SIZE}
        label={t('explore.users.listLabel')}
        empty={q ? t('explore.users.noMatch', { query: q }) : t('explore.users.empty')}
      >
        {(users) => <UserList users={users} label={t('explore.users.listLabel')} />}
      </Paged>
    </div>
  )
}
