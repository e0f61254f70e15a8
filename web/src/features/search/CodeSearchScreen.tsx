import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/PageHeader'
import { RepoPage } from '@/features/repositories'
import type { Repository } from '@/lib/forge/api'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { CodeResults } from './CodeResults'
import { SearchForm } from './SearchForm'

/** Code search in one repository's default branch, at /:owner/:repo/search?q=&language=&page=. */
export default function CodeSearchScreen() {
  return <RepoPage section="code">{(repo) => <RepoCodeSearch repo={repo} />}</RepoPage>
}

function RepoCodeSearch({ repo }: { repo: Repository }) {
  const { t } = useTranslation('search')
  useDocumentTitle(t('code.repoTitle', { repo: repo.full_name }))
  const [query, setQuery] = useUrlParam('q')
  const [language, setLanguage] = useUrlParam('language')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const submitted = query.trim()
  return (
    <div className="stack">
      <PageHeader title={t('code.repoHeading')} lead={t('code.repoLead', { branch: repo.default_branch })} />
      <SearchForm
        initial={query}
        label={t('code.repoLabel')}
        placeholder={t('code.placeholder')}
        onSearch={(q) => {
          setQuery(q)
          setPage('1')
        }}
      />
      <div className="search-results" aria-live="polite">
        {!submitted ? (
          <p className="muted">{t('prompt.code')}</p>
        ) : (
          <CodeResults
            query={submitted}
            language={language}
            onLanguage={(l) => {
              setLanguage(l)
              setPage('1')
            }}
            page={page}
            onPage={(p) => setPage(String(p))}
            scope={{ owner: repo.owner.login, repo: repo.name }}
          />
        )}
      </div>
    </div>
  )
}
