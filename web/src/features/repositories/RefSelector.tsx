import { type KeyboardEvent, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Input } from '@/components/Input'
import { type Repository, useBranches, useTags } from '@/lib/forge/api'
import { shortSha } from '@/lib/forge/format'

const FULL_SHA = /^[0-9a-f]{40}$/i

/**
 * Chooses the branch or tag a code view shows: a button that opens a
 * panel with a filter box and the branches or tags matching it, each a
 * link to the same view at that ref (a full page load, like every
 * navigation). Escape closes the panel and gives focus back to the button.
 */
export function RefSelector({ repo, current, hrefFor }: { repo: Repository; current: string; hrefFor: (ref: string) => string }) {
  const { t } = useTranslation('code')
  const [open, setOpen] = useState(false)
  const [tab, setTab] = useState<'branches' | 'tags'>('branches')
  const [filter, setFilter] = useState('')
  const button = useRef<HTMLButtonElement>(null)
  const panelId = useId()
  const label = FULL_SHA.test(current) ? shortSha(current) : current
  const close = () => {
    setOpen(false)
    button.current?.focus()
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation()
      close()
    }
  }
  return (
    <div className="ref-selector" onKeyDown={onKeyDown}>
      <button ref={button} type="button" className="btn btn-outline btn-sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        <span className="muted">{t('ref.label')}</span> <strong className="mono">{label}</strong> <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div id={panelId} className="card ref-selector-panel" role="dialog" aria-label={t('ref.dialog')}>
          <Input
            type="search"
            className="input"
            // Focus moves in only because the user opened the panel, to type at once.
            autoFocus
            aria-label={t('ref.filter')}
            placeholder={t('ref.filter')}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <div className="button-row ref-selector-tabs" role="group" aria-label={t('ref.kind')}>
            <button type="button" className="btn btn-ghost btn-sm" aria-pressed={tab === 'branches'} onClick={() => setTab('branches')}>
              {t('ref.branches')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" aria-pressed={tab === 'tags'} onClick={() => setTab('tags')}>
              {t('ref.tags')}
            </button>
          </div>
          <RefList repo={repo} kind={tab} filter={filter} current={current} hrefFor={hrefFor} />
        </div>
      )}
    </div>
  )
}

function RefList({ repo, kind, filter, current, hrefFor }: { repo: Repository; kind: 'branches' | 'tags'; filter: string; current: string; hrefFor: (ref: string) => string }) {
  const { t } = useTranslation('code')
  const branches = useBranches(repo.owner.login, repo.name)
  const tags = useTags(repo.owner.login, repo.name)
  const query = kind === 'branches' ? branches : tags
  if (query.isPending) return <p className="muted" role="status">{t('ref.loading')}</p>
  if (query.isError) return <p role="alert">{t('ref.error')}</p>
  const names = (kind === 'branches' ? (branches.data ?? []).map((b) => b.name) : (tags.data ?? []).map((tg) => tg.name)).filter((n) =>
    n.toLowerCase().includes(filter.trim().toLowerCase()),
  )
  if (names.length === 0) return <p className="muted">{filter ? t('ref.noMatch', { filter }) : t(`ref.none.${kind}`)}</p>
  return (
    <ul className="plain-list ref-selector-list" aria-label={t(`ref.${kind}`)}>
      {names.map((n) => (
        <li key={n}>
          <a href={hrefFor(n)} aria-current={n === current ? 'true' : undefined}>
            {n === current && <span aria-hidden="true">✓ </span>}
            {n}
            {kind === 'branches' && n === repo.default_branch && <span className="badge">{t('ref.default')}</span>}
          </a>
        </li>
      ))}
    </ul>
  )
}
