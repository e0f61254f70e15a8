import { type KeyboardEvent, useDeferredValue, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Dialog } from '@/components/Dialog'
import { EmptyState } from '@/components/EmptyState'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { repoHref, useRepoSearch } from '@/lib/forge/api'

/** Which form the picked repository opens. */
export type PickerTarget = 'issues' | 'pulls'

const PAGE_SIZE = 8

/**
 * Asks which repository a quick action is for: a search over the
 * repositories the visitor can read (the repository search answers with the
 * signed-in user's private ones too), each result linking to that
 * repository's new-issue or new-pull-request form. Arrow keys move between
 * the search box and the results.
 */
export function RepoPicker({ target, onClose }: { target: PickerTarget; onClose: () => void }) {
  const { t } = useTranslation('home')
  const [q, setQ] = useState('')
  const [page, setPage] = useState(1)
  const query = useDeferredValue(q)
  const repos = useRepoSearch(query, 'updated', page, PAGE_SIZE)
  const listRef = useRef<HTMLUListElement>(null)
  const inputId = useId()

  // ArrowDown from the box goes to the first result; arrows move along the list; ArrowUp from the first goes back.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    const links = [...(listRef.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])]
    const input = document.getElementById(inputId)
    const at = links.indexOf(document.activeElement as HTMLAnchorElement)
    const next = e.key === 'ArrowDown' ? (at < 0 ? 0 : Math.min(at + 1, links.length - 1)) : at - 1
    e.preventDefault()
    ;(next < 0 ? input : links[next])?.focus()
  }

  return (
    <Dialog title={t(`picker.${target}.title`)} description={<p>{t(`picker.${target}.description`)}</p>} closeLabel={t('picker.close')} onClose={onClose}>
      <div className="repo-picker" onKeyDown={onKeyDown}>
        <Field label={t('picker.search')}>
          <Input
            id={inputId}
            type="search"
            className="input"
            value={q}
            autoComplete="off"
            placeholder={t('picker.placeholder')}
            onChange={(e) => {
              setQ(e.target.value)
              setPage(1)
            }}
            data-autofocus
          />
        </Field>
        <div className="repo-picker-results" aria-live="polite" aria-busy={repos.isFetching}>
          <QueryState query={repos}>
            {({ items, total }) =>
              items.length === 0 ? (
                <EmptyState message={query.trim() ? t('picker.noMatch', { q: query.trim() }) : t('picker.none')} />
              ) : (
                <>
                  <ul ref={listRef} className="plain-list repo-picker-list" aria-label={t('picker.results')}>
                    {items.map((r) => (
                      <li key={r.id}>
                        <PreloadLink to={`${repoHref.home(r.owner.login, r.name)}/${target}/new`}>
                          <strong>{r.full_name}</strong>
                          {r.private && <span className="badge">{t('picker.private')}</span>}
                          {r.description && <span className="muted repo-picker-desc">{r.description}</span>}
                        </PreloadLink>
                      </li>
                    ))}
                  </ul>
                  <Pager page={page} more={total === null ? items.length === PAGE_SIZE : page * PAGE_SIZE < total} onPage={setPage} />
                </>
              )
            }
          </QueryState>
        </div>
      </div>
    </Dialog>
  )
}

function Pager({ page, more, onPage }: { page: number; more: boolean; onPage: (p: number) => void }) {
  const { t } = useTranslation('home')
  if (page === 1 && !more) return null
  return (
    <div className="button-row repo-picker-pager">
      <Button size="sm" variant="outline" disabled={page === 1} onClick={() => onPage(page - 1)}>
        {t('picker.previous')}
      </Button>
      <span className="muted">{t('picker.page', { page })}</span>
      <Button size="sm" variant="outline" disabled={!more} onClick={() => onPage(page + 1)}>
        {t('picker.next')}
      </Button>
    </div>
  )
}
