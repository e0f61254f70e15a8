import { useContext, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { Input } from '@/components/Input'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { type ContentEntry, isReplicatingError, type Repository, repoHref, useContents } from '@/lib/forge/api'
import { isBinary, isImage, MAX_HIGHLIGHT_BYTES, MAX_VIEW_BYTES, useFileBytes } from './blob'
import { Replicating } from './Replicating'
import { subject, useForgeFormat } from '@/lib/forge/format'
import { archiveHref, type CommitSummary, editHref, useIsBranch, useLastCommits } from './contentsApi'
import { FileIcon } from './FileIcon'
import { GoToFileContext } from './goToFileContext'
import { RefSelector } from './RefSelector'
import '@/components/highlight.css'

/** The path from the repository root to path, each part a link. */
export function Breadcrumbs({ repo, path, refParam }: { repo: Repository; path: string; refParam?: string }) {
  const { t } = useTranslation('repositories')
  const parts = path.split('/').filter(Boolean)
  return (
    <nav aria-label={t('code.breadcrumbs')} className="breadcrumbs">
      <PreloadLink to={repoHref.src(repo.owner.login, repo.name, '', refParam)}>{repo.name}</PreloadLink>
      {parts.map((part, i) => {
        const to = parts.slice(0, i + 1).join('/')
        const last = i === parts.length - 1
        return (
          <span key={to}>
            <span className="muted"> / </span>
            {last ? (
              <strong aria-current="page">{part}</strong>
            ) : (
              <PreloadLink to={repoHref.src(repo.owner.login, repo.name, to, refParam)}>{part}</PreloadLink>
            )}
          </span>
        )
      })}
    </nav>
  )
}

/**
 * The directory or file at path and ref. refParam is the ref as the URL
 * names it (undefined for the default branch), kept on the links.
 */
export function CodeView({ repo, path, gitRef, refParam }: { repo: Repository; path: string; gitRef: string; refParam?: string }) {
  const { t } = useTranslation('repositories')
  const contents = useContents(repo.owner.login, repo.name, path, gitRef)
  if (contents.error instanceof NotFoundError) {
    return <EmptyState message={t('code.pathNotFound', { path: path || '/', ref: gitRef })} />
  }
  // The git data is on its way to this node (503 replicating): its progress, not an error.
  if (isReplicatingError(contents.error)) return <Replicating repo={repo} />
  return (
    <QueryState query={contents} defer>
      {(data) => (Array.isArray(data) ? <TreeListing repo={repo} entries={data} path={path} gitRef={gitRef} refParam={refParam} /> : <FileView repo={repo} entry={data} gitRef={gitRef} refParam={refParam} />)}
    </QueryState>
  )
}

const ORDER: Record<ContentEntry['type'], number> = { dir: 0, submodule: 1, symlink: 2, file: 2 }

export function TreeListing({ repo, entries, path, gitRef, refParam }: { repo: Repository; entries: ContentEntry[]; path: string; gitRef: string; refParam?: string }) {
  const { t } = useTranslation('repositories')
  const { t: tc } = useTranslation('code')
  const fmt = useForgeFormat()
  const last = useLastCommits(repo.owner.login, repo.name, path, gitRef)
  const lastOf = useMemo(() => new Map((last.data?.entries ?? []).map((e) => [e.name, e.commit])), [last.data])
  const isBranch = useIsBranch(repo, gitRef)
  const newFile = repo.permissions?.push && isBranch && (
    <div className="button-row">
      <PreloadLink className="btn btn-primary btn-sm" to={editHref.create(repo.owner.login, repo.name, path, refParam)}>
        {tc('toolbar.newFile')}
      </PreloadLink>
    </div>
  )
  const sorted = useMemo(() => [...entries].sort((a, b) => ORDER[a.type] - ORDER[b.type] || a.name.localeCompare(b.name)), [entries])
  if (entries.length === 0) {
    return (
      <>
        {newFile}
        <EmptyState message={t('code.emptyDir')} />
      </>
    )
  }
  const parent = path.split('/').filter(Boolean).slice(0, -1).join('/')
  return (
    <div className="table-scroll">
      {newFile}
      <table className="data file-tree">
        <caption className="sr-only">{t('code.treeCaption', { path: path || repo.name })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('code.columns.name')}</th>
            <th scope="col">{tc('tree.lastCommit')}</th>
            <th scope="col">{tc('tree.updated')}</th>
            <th scope="col" className="num">
              {t('code.columns.size')}
            </th>
          </tr>
        </thead>
        <tbody>
          {path && (
            <tr>
              <td colSpan={4}>
                <PreloadLink to={repoHref.src(repo.owner.login, repo.name, parent, refParam)} aria-label={t('code.up')}>
                  ..
                </PreloadLink>
              </td>
            </tr>
          )}
          {sorted.map((e) => (
            <tr key={e.path}>
              <td>
                <FileIcon type={e.type} name={e.name} />{' '}
                <PreloadLink to={repoHref.src(repo.owner.login, repo.name, e.path, refParam)}>{e.name}</PreloadLink>
                {e.type !== 'file' && <span className="sr-only"> ({t(`code.kind.${e.type}`)})</span>}
              </td>
              <LastCommitCells repo={repo} commit={lastOf.get(e.name)} pending={last.isPending} failed={last.isError} />
              <td className="num muted">{e.type === 'file' ? fmt.bytes(e.size) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function FileView({ repo, entry, gitRef, refParam }: { repo: Repository; entry: ContentEntry; gitRef: string; refParam?: string }) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const owner = repo.owner.login
  const raw = repoHref.raw(owner, repo.name, entry.path, gitRef)
  const tooLarge = Boolean(entry.too_large) || entry.size > MAX_VIEW_BYTES
  // The server says when a file is binary, so its bytes are not fetched just to find that out.
  const knownBinary = Boolean(entry.binary)
  const drawable = entry.type === 'file' && !tooLarge && !knownBinary
  const bytes = useFileBytes(owner, repo.name, entry, gitRef, drawable)
  return (
    <section className="card file-view" aria-label={entry.name}>
      <header className="file-view-header">
        <span>
          <strong>{entry.name}</strong> <span className="muted">{fmt.bytes(entry.size)}</span>
        </span>
        <span className="button-row">
          <a className="btn btn-outline btn-sm" href={raw}>
            {t('code.raw')}
          </a>
          <a className="btn btn-outline btn-sm" href={raw} download={entry.name}>
            {t('code.download')}
          </a>
          <PreloadLink className="btn btn-ghost btn-sm" to={repoHref.commits(owner, repo.name, refParam, entry.path)}>
            {t('code.history')}
          </PreloadLink>
          {entry.type === 'file' && <FileActions repo={repo} entry={entry} gitRef={gitRef} refParam={refParam} editable={!tooLarge && !knownBinary} />}
        </span>
      </header>
      {entry.type === 'symlink' && <p className="file-notice">{t('code.symlink', { target: entry.target ?? '' })}</p>}
      {entry.type === 'submodule' && <p className="file-notice">{t('code.submodule')}</p>}
      {entry.type === 'file' && tooLarge && (
        <p className="file-notice" role="note">
          {t('code.tooLarge', { size: fmt.bytes(entry.size), limit: fmt.bytes(MAX_VIEW_BYTES) })}
        </p>
      )}
      {entry.type === 'file' && !tooLarge && knownBinary && <BinaryFile name={entry.name} raw={raw} />}
      {drawable && (
        <QueryState query={bytes}>
          {(data) =>
            isBinary(data) ? (
              <BinaryFile name={entry.name} raw={raw} />
            ) : (
              <CodeBlock code={new TextDecoder().decode(data)} filename={entry.name} highlightable={data.length <= MAX_HIGHLIGHT_BYTES} />
            )
          }
        </QueryState>
      )}
    </section>
  )
}

/** An image is shown; any other binary file gets a notice instead of its bytes. */
function BinaryFile({ name, raw }: { name: string; raw: string }) {
  const { t } = useTranslation('repositories')
  if (isImage(name)) {
    return (
      <div className="file-image">
        <img src={raw} alt={name} />
      </div>
    )
  }
  return (
    <p className="file-notice" role="note">
      {t('code.binary')}
    </p>
  )
}

/** Source with line numbers; highlighting arrives when its chunk and grammar have loaded. */
export function CodeBlock({ code, filename, highlightable = true }: { code: string; filename: string; highlightable?: boolean }) {
  const { t } = useTranslation('repositories')
  const [html, setHtml] = useState<string | null>(null)
  useEffect(() => {
    if (!highlightable) return
    let live = true
    import('@/lib/highlight')
      .then((m) => m.highlight(code, filename))
      .then((h) => {
        if (live) setHtml(h)
      })
      .catch(() => {
        // Plain text is a fine fallback when a grammar fails to load.
      })
    return () => {
      live = false
    }
  }, [code, filename, highlightable])
  const lines = code.endsWith('\n') ? code.slice(0, -1).split('\n') : code.split('\n')
  if (code === '') return <p className="file-notice">{t('code.emptyFile')}</p>
  return (
    <div className="code-view">
      <pre className="code-gutter" aria-hidden="true">
        {lines.map((_, i) => i + 1).join('\n')}
      </pre>
      {html === null ? (
        <pre className="code-body">
          <code>{code}</code>
        </pre>
      ) : (
        <pre className="code-body">
          <code className="hljs" data-highlighted="yes" dangerouslySetInnerHTML={{ __html: html }} />
        </pre>
      )}
    </div>
  )
}

/** The last commit and its date in a row of the tree listing. */
function LastCommitCells({ repo, commit, pending, failed }: { repo: Repository; commit: CommitSummary | null | undefined; pending: boolean; failed: boolean }) {
  const { t } = useTranslation('code')
  const fmt = useForgeFormat()
  if (!commit) {
    const note = pending ? t('tree.loading') : failed ? t('tree.failed') : ''
    return (
      <>
        <td className="muted last-commit">{note}</td>
        <td />
      </>
    )
  }
  return (
    <>
      <td className="last-commit">
        <PreloadLink className="muted" to={repoHref.commit(repo.owner.login, repo.name, commit.sha)} title={commit.message}>
          {subject(commit.message)}
        </PreloadLink>
      </td>
      <td className="muted">
        <time dateTime={commit.committer.date} title={commit.committer.date}>
          {fmt.ago(commit.committer.date)}
        </time>
      </td>
    </>
  )
}

/** Blame for anyone; edit and delete for people who may push (on a branch, not a tag or commit). */
function FileActions({ repo, entry, gitRef, refParam, editable }: { repo: Repository; entry: ContentEntry; gitRef: string; refParam?: string; editable: boolean }) {
  const { t } = useTranslation('code')
  const owner = repo.owner.login
  const isBranch = useIsBranch(repo, gitRef)
  const writable = Boolean(repo.permissions?.push) && isBranch
  return (
    <>
      {editable && (
        <PreloadLink className="btn btn-ghost btn-sm" to={editHref.blame(owner, repo.name, entry.path, refParam)}>
          {t('file.blame')}
        </PreloadLink>
      )}
      {writable && editable && (
        <PreloadLink className="btn btn-outline btn-sm" to={editHref.edit(owner, repo.name, entry.path, refParam)}>
          {t('file.edit')}
        </PreloadLink>
      )}
      {writable && (
        <PreloadLink className="btn btn-ghost btn-sm" to={editHref.remove(owner, repo.name, entry.path, refParam)}>
          {t('file.delete')}
        </PreloadLink>
      )}
    </>
  )
}

/**
 * The bar over a code view: the branch or tag selector, the history of
 * the path, "Go to file", code search in the repository (its default
 * branch), and downloads of the ref as .zip and .tar.gz.
 */
export function CodeToolbar({ repo, path, gitRef, hrefFor }: { repo: Repository; path: string; gitRef: string; hrefFor: (ref: string) => string }) {
  const { t } = useTranslation('code')
  const owner = repo.owner.login
  const refParam = gitRef === repo.default_branch ? undefined : gitRef
  const goToFile = useContext(GoToFileContext)
  return (
    <div className="code-toolbar">
      <RefSelector repo={repo} current={gitRef} hrefFor={hrefFor} />
      <PreloadLink to={repoHref.commits(owner, repo.name, refParam, path || undefined)}>{t('toolbar.history')}</PreloadLink>
      {goToFile && (
        <Button size="sm" variant="outline" aria-keyshortcuts="t" onClick={goToFile}>
          {t('finder.button')} <kbd aria-hidden="true">t</kbd>
        </Button>
      )}
      <form role="search" className="code-search" method="get" action={repoHref.section(owner, repo.name, 'search')}>
        <Input type="search" name="q" required maxLength={200} aria-label={t('toolbar.search')} placeholder={t('toolbar.search')} />
        <Button type="submit" size="sm" variant="outline">
          {t('toolbar.searchButton')}
        </Button>
      </form>
      <span className="button-row" role="group" aria-label={t('toolbar.download')}>
        <a className="btn btn-outline btn-sm" href={archiveHref(owner, repo.name, gitRef, 'zip')} download>
          {t('toolbar.zip')}
        </a>
        <a className="btn btn-outline btn-sm" href={archiveHref(owner, repo.name, gitRef, 'tar.gz')} download>
          {t('toolbar.tarGz')}
        </a>
      </span>
    </div>
  )
}
