import { useId, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NoDescription } from '@/features/issues/EmptyStates'
import { useUrlParam } from '@/lib/useUrlParam'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { filterRepositories, isRepositorySort, type Repository, type RepositorySort, SORTS, sortRepositories, useRepositories } from './api'
import './repositories.css'

export default function ExploreScreen() {
  const { t } = useTranslation('repositories')
  useDocumentTitle(t('explore.title'))
  const [query, setQuery] = useUrlParam('q')
  const [sortParam, setSort] = useUrlParam('sort', 'updated')
  // A hand-edited ?sort= that we do not know falls back to the default.
  const sort: RepositorySort = isRepositorySort(sortParam) ? sortParam : 'updated'
  const repositories = useRepositories()
  const shown = useMemo(() => sortRepositories(filterRepositories(repositories, query), sort), [repositories, query, sort])

  return (
    <div className="stack">
      <PageHeader title={t('explore.title')} lead={t('explore.lead')} actions={<NewRepositoryAction />} />
      <ExploreFilters query={query} onQuery={setQuery} sort={sort} onSort={setSort} />
      <RepositoryList repositories={shown} total={repositories.length} query={query} />
    </div>
  )
}

function NewRepositoryAction() {
  const { t } = useTranslation('repositories')
  const noteId = useId()
  return (
    <div className="pending-action">
      <Button disabled aria-describedby={noteId}>
        {t('explore.newRepository')}
      </Button>
      <p id={noteId} className="muted">
        {t('explore.newRepositoryNote')}
      </p>
    </div>
  )
}

interface FiltersProps {
  query: string
  onQuery: (q: string) => void
  sort: RepositorySort
  onSort: (s: string) => void
}

// The list filters as the user types, so submitting only keeps Enter from reloading.
function ExploreFilters({ query, onQuery, sort, onSort }: FiltersProps) {
  const { t } = useTranslation('repositories')
  const id = useId()
  return (
    <form role="search" aria-label={t('explore.filters')} className="explore-filters" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor={`${id}-q`}>{t('explore.search.label')}</label>
        <input id={`${id}-q`} type="search" value={query} placeholder={t('explore.search.placeholder')} maxLength={200} onChange={(e) => onQuery(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-sort`}>{t('explore.sort.label')}</label>
        <select id={`${id}-sort`} value={sort} onChange={(e) => onSort(e.target.value)}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`explore.sort.${s}`)}
            </option>
          ))}
        </select>
      </div>
    </form>
  )
}

function RepositoryList({ repositories, total, query }: { repositories: Repository[]; total: number; query: string }) {
  const { t } = useTranslation('repositories')
  if (total === 0) return <EmptyState message={t('explore.empty')} />
  if (repositories.length === 0) return <EmptyState message={t('explore.noMatch', { query: query.trim() })} />
  return (
    <ul className="repository-list stack" aria-label={t('explore.listLabel')}>
      {repositories.map((r) => (
        <Card as="li" key={r.id}>
          <h2>
            <PreloadLink to={`/repository/${r.id}`}>{r.full_name}</PreloadLink>
          </h2>
          {r.description ? <p>{r.description}</p> : <NoDescription />}
        </Card>
      ))}
    </ul>
  )
}
