import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Paged } from '@/components/Lists'
import { PreloadLink } from '@/components/PreloadLink'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { repoHref } from '@/lib/forge/api'
import { type CodeHit, type CodeSearchScope, highlightParts, useCodeSearch } from './codeSearch'
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
}

/** The files matching a code search, each with its matching lines, and the language filter. */
export function CodeResults({ query, language, onLanguage, page, onPage, scope }: CodeResultsProps) {
  const { t } = useTranslation('search')
  const id = useId()
  const found = useCodeSearch(query, language, page, CODE_PAGE_SIZE, scope)
  const languages = found.data?.languages ?? []
  return (
    <div className="stack">
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
      <Paged query={found} page={page} onPage={onPage} limit={CODE_PAGE_SIZE} label={t('types.code')} empty={t('empty')}>
        {(hits) => (
          <ul className="search-list code-hits" aria-label={t('results')}>
            {hits.map((h) => (
              <CodeHitRow key={`${h.repository.id}:${h.path}`} hit={h} showRepo={!scope} />
            ))}
          </ul>
        )}
      </Paged>
    </div>
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
