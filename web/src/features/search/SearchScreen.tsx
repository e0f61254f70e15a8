import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { Tabs } from '@/components/Tabs'
import { userQuery } from '@/features/users/api'
import { retryUnlessNotFound } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import './search.css'

const TYPES = ['repositories', 'issues', 'users'] as const
type SearchType = (typeof TYPES)[number]

function isSearchType(s: string): s is SearchType {
  return (TYPES as readonly string[]).includes(s)
}

/**
 * Search across repositories, issues and users. Repositories and issues
 * arrive with the forge milestone, so those tabs honestly find nothing. Users
 * exist, but the node has no search endpoint: the Users tab looks up the
 * query as an exact username.
 */
export default function SearchScreen() {
  const { t } = useTranslation('search')
  useDocumentTitle(t('title'))
  const [query, setQuery] = useUrlParam('q')
  const [typeParam, setType] = useUrlParam('type', 'repositories')
  const type: SearchType = isSearchType(typeParam) ? typeParam : 'repositories'
  const submitted = query.trim()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      <SearchForm initial={query} onSearch={setQuery} />
      <Tabs label={t('typesLabel')} tabs={TYPES.map((id) => ({ id, label: t(`types.${id}`) }))} selected={type} onSelect={setType}>
        <div className="search-results" aria-live="polite">
          {submitted ? (
            type === 'users' ? (
              <UserResults query={submitted} />
            ) : (
              <NoResults note={t('nothingYet')} />
            )
          ) : (
            <p className="muted">{t(`prompt.${type}`)}</p>
          )}
        </div>
      </Tabs>
    </div>
  )
}

function NoResults({ note }: { note: string }) {
  const { t } = useTranslation('search')
  return (
    <>
      <EmptyState message={t('empty')} />
      <p className="muted">{note}</p>
    </>
  )
}

/** A username as the chain accepts one (1-39 of A-Z, a-z, 0-9, -, _ and .); a leading @ is dropped. */
export function usernameOf(query: string): string | null {
  const name = query.replace(/^@/, '')
  return /^[A-Za-z0-9._-]{1,39}$/.test(name) ? name : null
}

/** The user whose username is exactly the query (GET /api/v1/users/{name}; 404 is no result). */
function UserResults({ query }: { query: string }) {
  const { t } = useTranslation('search')
  const name = usernameOf(query)
  const user = useQuery({ ...userQuery(name ?? ''), enabled: name !== null, retry: retryUnlessNotFound })
  if (name === null || user.error instanceof NotFoundError) return <NoResults note={t('usersNote')} />
  return (
    <QueryState query={user}>
      {(u) => (
        <>
          <ul className="search-list" aria-label={t('results')}>
            <li>
              <PreloadLink to={`/user/${encodeURIComponent(u.login)}`}>{u.full_name || u.login}</PreloadLink>{' '}
              <span className="muted">@{u.login}</span>
              {u.description && <p className="muted">{u.description}</p>}
            </li>
          </ul>
          <p className="muted">{t('usersNote')}</p>
        </>
      )}
    </QueryState>
  )
}

// The URL holds the submitted query; the input holds what is being typed.
function SearchForm({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation('search')
  const id = useId()
  const [draft, setDraft] = useState(initial)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSearch(draft.trim())
  }
  return (
    <form role="search" className="search-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>{t('label')}</label>
        <div className="search-row">
          <input id={id} type="search" name="q" value={draft} maxLength={200} placeholder={t('placeholder')} onChange={(e) => setDraft(e.target.value)} />
          <Button type="submit">{t('submit')}</Button>
        </div>
      </div>
    </form>
  )
}
