import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { Tabs } from '@/components/Tabs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import './search.css'

const TYPES = ['repositories', 'issues', 'users'] as const
type SearchType = (typeof TYPES)[number]

function isSearchType(s: string): s is SearchType {
  return (TYPES as readonly string[]).includes(s)
}

/**
 * Search across repositories, issues and users. Nothing exists to search
 * before the forge and chain milestones (nor an endpoint to ask), so every
 * submitted query honestly finds nothing.
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
            <>
              <EmptyState message={t('empty')} />
              <p className="muted">{t('nothingYet')}</p>
            </>
          ) : (
            <p className="muted">{t(`prompt.${type}`)}</p>
          )}
        </div>
      </Tabs>
    </div>
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
