import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { type Issue, StateBadge, stateKind } from '@/features/issues'
import { type Repository, repoHref, useRepoSearch } from '@/lib/forge/api'
import { Paged } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { foundIssueHref, useIssueSearch, useUserSearch } from './api'
import { UserList } from './UserList'
import { CodeResults } from './CodeResults'
import { SearchForm } from './SearchForm'
import './search.css'

export const SEARCH_PAGE_SIZE = 20
const TYPES = ['repositories', 'code', 'issues', 'users'] as const
type SearchType = (typeof TYPES)[number]

function isSearchType(s: string): s is SearchType {
  return (TYPES as readonly string[]).includes(s)
}

/**
 * Search across repositories, code, issues and users: the submitted query,
 * the tab, the page and the code's language and repository live in the URL. Each tab asks the server only once it
 * is shown with a query.
 */
export default function SearchScreen() {
  const { t } = useTranslation('search')
  useDocumentTitle(t('title'))
  const [query, setQuery] = useUrlParam('q')
  const [typeParam, setType] = useUrlParam('type', 'repositories')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const [language, setLanguage] = useUrlParam('language')
  const [repo, setRepo] = useUrlParam('repo')
  const type: SearchType = isSearchType(typeParam) ? typeParam : 'repositories'
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const submitted = query.trim()
  // A new search or another tab starts again on the first page.
  const search = (q: string) => {
    setQuery(q)
    setPage('1')
  }
  const choose = (id: SearchType) => {
    setType(id)
    setPage('1')
  }
  const chooseLanguage = (l: string) => {
    setLanguage(l)
    setPage('1')
  }
  const chooseRepo = (r: string) => {
    setRepo(r)
    setPage('1')
  }
  const results = { query: submitted, page, onPage: (p: number) => setPage(String(p)) }
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      <SearchForm initial={query} onSearch={search} />
      <Tabs label={t('typesLabel')} tabs={TYPES.map((id) => ({ id, label: t(`types.${id}`) }))} selected={type} onSelect={choose}>
        <div className="search-results" aria-live="polite">
          {!submitted ? (
            <p className="muted">{t(`prompt.${type}`)}</p>
          ) : type === 'repositories' ? (
            <RepositoryResults {...results} />
          ) : type === 'code' ? (
            <CodeResults {...results} language={language} onLanguage={chooseLanguage} repo={repo} onRepo={chooseRepo} />
          ) : type === 'issues' ? (
            <IssueResults {...results} />
          ) : (
            <UserResults {...results} />
          )}
        </div>
      </Tabs>
    </div>
  )
}

interface ResultsProps {
  query: string
  page: number
  onPage: (page: number) => void
}

function RepositoryResults({ query, page, onPage }: ResultsProps) {
  const { t } = useTranslation('search')
  const found = useRepoSearch(query, 'updated', page, SEARCH_PAGE_SIZE)
  return (
    <Paged query={found} page={page} onPage={onPage} limit={SEARCH_PAGE_SIZE} label={t('types.repositories')} empty={t('empty')}>
      {(repos) => (
        <ul className="search-list" aria-label={t('results')}>
          {repos.map((r) => (
            <RepositoryRow key={r.id} repo={r} />
          ))}
        </ul>
      )}
    </Paged>
  )
}

function RepositoryRow({ repo }: { repo: Repository }) {
  const { t } = useTranslation('search')
  return (
    <li>
      <PreloadLink to={repoHref.home(repo.owner.login, repo.name)}>{repo.full_name}</PreloadLink>
      {repo.private && <span className="badge search-badge">{t('private')}</span>}
      {repo.description && <p className="muted">{repo.description}</p>}
    </li>
  )
}

function IssueResults({ query, page, onPage }: ResultsProps) {
  const { t } = useTranslation('search')
  const found = useIssueSearch(query, page, SEARCH_PAGE_SIZE)
  return (
    <Paged query={found} page={page} onPage={onPage} limit={SEARCH_PAGE_SIZE} label={t('types.issues')} empty={t('empty')}>
      {(issues) => (
        <ul className="search-list" aria-label={t('results')}>
          {issues.map((is) => (
            <IssueRow key={`${is.repository?.id}#${is.number}`} issue={is} />
          ))}
        </ul>
      )}
    </Paged>
  )
}

function IssueRow({ issue }: { issue: Issue }) {
  const { t } = useTranslation('search')
  const href = foundIssueHref(issue)
  return (
    <li className="search-issue">
      <StateBadge kind={stateKind(issue, Boolean(issue.pull_request?.merged))} />
      <div>
        {href ? <PreloadLink to={href}>{issue.title}</PreloadLink> : issue.title}
        <p className="muted">
          {issue.repository?.full_name} #{issue.number}
          {issue.pull_request && ` · ${t('pullRequest')}`}
        </p>
      </div>
    </li>
  )
}

function UserResults({ query, page, onPage }: ResultsProps) {
  const { t } = useTranslation('search')
  const found = useUserSearch(query, page, SEARCH_PAGE_SIZE)
  return (
    <Paged query={found} page={page} onPage={onPage} limit={SEARCH_PAGE_SIZE} label={t('types.users')} empty={t('empty')}>
      {(users) => <UserList users={users} label={t('results')} />}
    </Paged>
  )
}
