import { type KeyboardEvent, useDeferredValue, useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@/components/Dialog'
import { Input } from '@/components/Input'
import { type Repository, repoHref } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { MAX_TREE_PATHS, useTreePaths } from './contentsApi'
import { FileIcon } from './FileIcon'
import { fuzzyFilter, highlightRuns } from './fuzzy'

/** How many of the best matches the list shows. */
export const MAX_RESULTS = 50

/**
 * "Go to file": every file path of gitRef, filtered fuzzily as the user
 * types (a combobox: focus stays in the box, the arrow keys move through
 * the list, Enter opens the chosen file, Escape closes).
 */
export function GoToFileDialog({ repo, gitRef, onClose }: { repo: Repository; gitRef: string; onClose: () => void }) {
  const { t } = useTranslation('code')
  const owner = repo.owner.login
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const tree = useTreePaths(owner, repo.name, gitRef, !repo.empty)
  const deferred = useDeferredValue(query)
  const found = useMemo(() => fuzzyFilter(deferred, tree.data?.paths ?? [], Number.POSITIVE_INFINITY), [deferred, tree.data])
  const shown = found.slice(0, MAX_RESULTS)
  const listId = useId()
  const optionId = (i: number) => `${listId}-${i}`
  const refParam = gitRef === repo.default_branch ? undefined : gitRef
  const open = (path: string) => nav.go(repoHref.src(owner, repo.name, path, refParam))

  useEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' })
  })

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const step = e.key === 'ArrowDown' ? 1 : -1
      setActive((a) => Math.min(Math.max(a + step, 0), Math.max(shown.length - 1, 0)))
    } else if (e.key === 'Enter') {
      e.preventDefault()
      const chosen = shown[Math.min(active, shown.length - 1)]
      if (chosen) open(chosen.path)
    }
  }

  let status: string
  if (repo.empty) status = t('finder.empty')
  else if (tree.isPending) status = t('finder.loading')
  else if (tree.isError) status = t('finder.error')
  else if (deferred.trim() === '') status = t('finder.count', { count: found.length, n: found.length })
  else if (found.length === 0) status = t('finder.none', { query: deferred })
  else status = t('finder.matches', { count: found.length, n: found.length })

  return (
    <Dialog title={t('finder.title')} closeLabel={t('finder.close')} onClose={onClose}>
      <div className="file-finder">
        <Input
          className="input mono"
          type="text"
          role="combobox"
          aria-label={t('finder.input', { ref: gitRef })}
          aria-autocomplete="list"
          aria-expanded={shown.length > 0}
          aria-controls={listId}
          aria-activedescendant={shown.length > 0 ? optionId(Math.min(active, shown.length - 1)) : undefined}
          placeholder={t('finder.placeholder')}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setActive(0)
          }}
          onKeyDown={onKeyDown}
        />
        <p role="status" className="muted file-finder-status">
          {status}
          {found.length > shown.length && ` ${t('finder.more', { shown: shown.length })}`}
          {tree.data?.truncated && ` ${t('finder.truncated', { n: MAX_TREE_PATHS })}`}
        </p>
        <ul id={listId} role="listbox" aria-label={t('finder.results')} className="plain-list file-finder-list">
          {shown.map((m, i) => (
            <li key={m.path} id={optionId(i)} role="option" aria-selected={i === Math.min(active, shown.length - 1)} onMouseMove={() => setActive(i)} onClick={() => open(m.path)}>
              <FileIcon type="file" name={m.path} />
              <span className="mono">
                {highlightRuns(m.path, m.positions).map((r, k) => (r.match ? <mark key={k}>{r.text}</mark> : <span key={k}>{r.text}</span>))}
              </span>
            </li>
          ))}
        </ul>
        <p className="muted file-finder-hint">{t('finder.hint')}</p>
      </div>
    </Dialog>
  )
}
