import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Paged } from '@/components/Lists'
import { PreloadLink } from '@/components/PreloadLink'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { Button } from '@/components/Button'
import { Input } from '@/components/Input'
import { NotFoundError } from '@/components/QueryState'
import { repoHref } from '@/lib/forge/api'
import { type CodeHit, type CodeSearchScope, highlightParts, isRepoName, useCodeSearch } from './codeSearch'
import './search.css'

export const CODE_PAGE_SIZE = 10

interface CodeResultsProps {
  query: string
  language: string
  onLanguage: (language: string) => void
  page: number
  onPage: (page: number) => void
  /** One repository; none searches every repository the viewer reads. */
  scope?: CodeSearchScope
  /** Without a scope: the repository ("owner/name") the search is narrowed to, or "" for all, and how to change it. */
  repo?: string
  onRepo?: (repo: string) => void
}

/** The files matching a code search, each with its matching lines, and the language and repository filters. */
export function CodeResults({ query, language, onLanguage, page, onPage, scope, repo = '', onRepo }: CodeResultsProps) {
  const { t } = useTranslation('search')
  const id = useId()
  const found = useCodeSearch(query, language, page, CODE_PAGE_SIZE, scope, repo)
  const languages = found.data?.languages ?? []
  const seen = [...new Set((found.data?.items ?? []).map((h) => h.repository.full_name))]
  return (
    <div className="stack">
      <div className="code-filters">
        {(languages.length > 0 || language) && (
          <Field label={t('code.language')} className="code-language">
            <Select id={id} value={language} onChange={(e) => onLanguage(e.target.value)}>
              <option value="">{t('code.anyLanguage')}</option>
              {language && !languages.some((l) => l.name === language) && <option value={language}>{language}</option>}
              {languages.map((l) => (
                <option key={l.name} value={l.name}>
                  {t('code.languageCount', { language: l.name, count: l.count })}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {!scope && onRepo && <RepoFilter key={repo} repo={repo} onRepo={onRepo} suggestions={seen} />}
      </div>
      {repo && !scope && found.error instanceof NotFoundError ? (
        <p className="inline-error" role="alert">
          {t('code.noRepo', { repo })}
        </p>
      ) : (
        <Paged query={found} page={page} onPage={onPage} limit={CODE_PAGE_SIZE} label={t('types.code')} empty={t('empty')}>
          {(hits) => (
            <ul className="search-list code-hits" aria-label={t('results')}>
              {hits.map((h) => (
                <CodeHitRow key={`${h.repository.id}:${h.path}`} hit={h} showRepo={!scope} />
              ))}
            </ul>
          )}
        </Paged>
      )}
    </div>
  )
}

/**
 * Narrows a search across repositories to one: owner/name typed (the
 * repositories of the current hits are offered) and applied on Enter or
 * Filter; All repositories takes it off.
 */
function RepoFilter({ repo, onRepo, suggestions }: { repo: string; onRepo: (repo: string) => void; suggestions: string[] }) {
  const { t } = useTranslation('search')
  const listId = useId()
  const [text, setText] = useState(repo)
  const [error, setError] = useState('')
  const apply = (e: FormEvent) => {
    e.preventDefault()
    const name = text.trim()
    if (name !== '' && !isRepoName(name)) {
      setError(t('code.repoInvalid'))
      return
    }
    setError('')
    onRepo(name)
  }
  return (
    <form className="code-repo" onSubmit={apply} role="search" aria-label={t('code.repoFilter')}>
      <Field
        label={t('code.repo')}
        error={error || undefined}
        row="code-repo-row"
        after={
          <>
            <datalist id={listId}>
              {suggestions.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <Button type="submit" size="sm" variant="outline">
              {t('code.repoApply')}
            </Button>
            {repo && (
              <Button type="button" size="sm" variant="ghost" onClick={() => onRepo('')}>
                {t('code.allRepos')}
              </Button>
            )}
          </>
        }
      >
        <Input
          type="text"
          list={listId}
          value={text}
          placeholder={t('code.repoPlaceholder')}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value)
            setError('')
          }}
        />
      </Field>
    </form>
  )
}

function CodeHitRow({ hit, showRepo }: { hit: CodeHit; showRepo: boolean }) {
  const { t } = useTranslation('search')
  const [owner = '', name = ''] = hit.repository.full_name.split('/')
  const fileHref = repoHref.src(owner, name, hit.path)
  return (
    <li className="code-hit">
      <p className="code-hit-file">
        {showRepo && (
          <>
            <PreloadLink to={repoHref.home(owner, name)}>{hit.repository.full_name}</PreloadLink>
            {' · '}
          </>
        )}
        <PreloadLink to={fileHref}>{hit.path}</PreloadLink>
        {hit.language && <span className="badge search-badge">{hit.language}</span>}
      </p>
      {hit.lines.length > 0 && (
        <ol className="code-hit-lines" aria-label={t('code.lines', { path: hit.path })}>
          {hit.lines.map((l) => (
            <li key={l.number}>
              <a className="code-hit-number" href={`${fileHref}#L${l.number}`} aria-label={t('code.line', { number: l.number })}>
                {l.number}
              </a>
              <code>
                {highlightParts(l.text, l.ranges).map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
              </code>
            </li>
          ))}
        </ol>
      )}
    </li>
  )
}
