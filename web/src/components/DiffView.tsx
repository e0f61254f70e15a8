import { Fragment, type ReactNode, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { useUrlParam } from '@/lib/useUrlParam'
import { type DiffFile, diffFileId, type DiffLine, filePath, parseDiff, splitRows, takeRows, unifiedRows } from '@/lib/forge/diff'
import { useForgeFormat } from '@/lib/forge/format'
import { useDiffHighlight } from './useDiffHighlight'
import './highlight.css'

/** A line of a file in a diff: the side is "new" for added and unchanged lines, "old" for deleted ones. */
export interface LineAnchor {
  path: string
  side: 'old' | 'new'
  line: number
}

export function anchorOf(file: DiffFile, line: DiffLine): LineAnchor {
  return line.kind === 'del' ? { path: filePath(file), side: 'old', line: line.oldNo ?? 0 } : { path: filePath(file), side: 'new', line: line.newNo ?? 0 }
}

interface LineTools {
  /** What shows under a line: its review comments and an open draft. */
  renderBelow?: (anchor: LineAnchor) => ReactNode
  /** Starts a comment on a line; without it lines have no comment button. */
  onComment?: (anchor: LineAnchor) => void
}

/** Per-file additions: controls in a file's header, and files shown folded (a reviewer's "viewed"). */
export interface FileTools {
  fileActions?: (file: DiffFile) => ReactNode
  folded?: (file: DiffFile) => boolean
}

/** Highlighted HTML of a file's lines, when it has loaded. */
type Highlighted = Map<DiffLine, string> | null

export type DiffMode = 'unified' | 'split'

/** Rows drawn at first and added by each "show more", so a huge diff does not freeze the page. */
export const DIFF_PAGE_ROWS = 1000

/**
 * A diff of several files in unified or split layout (kept in ?diff=), drawn
 * a page of rows at a time, with optional per-line comment tools.
 */
export function DiffView({ files, pageRows = DIFF_PAGE_ROWS, fileActions, folded, toolbar, ...tools }: { files: DiffFile[]; pageRows?: number; toolbar?: ReactNode } & LineTools & FileTools) {
  const { t } = useTranslation('repositories')
  const fmt = useForgeFormat()
  const [modeParam, setMode] = useUrlParam('diff', 'unified')
  const mode: DiffMode = modeParam === 'split' ? 'split' : 'unified'
  const [budget, setBudget] = useState(pageRows)
  // A folded file draws no rows, so it takes none of the page.
  // The file the address names (#diff-…, a file tree's link): drawn even when further down than the page.
  const [target, setTarget] = useState(() => window.location.hash.slice(1))
  useEffect(() => {
    const onHash = () => setTarget(window.location.hash.slice(1))
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  const page = useMemo(() => {
    const rowsOf = (f: DiffFile) => (folded?.(f) ? [] : mode === 'split' ? splitRows(f) : unifiedRows(f))
    const at = target ? files.findIndex((f) => diffFileId(f) === target) : -1
    const upTo = files.slice(0, at + 1).reduce((n, f) => n + Math.max(rowsOf(f).length, 1), 0)
    return takeRows<ReturnType<typeof splitRows>[number] | ReturnType<typeof unifiedRows>[number]>(files, rowsOf, Math.max(budget, upTo))
  }, [files, mode, budget, folded, target])
  const targetShown = page.shown.some(({ file }) => diffFileId(file) === target)
  useEffect(() => {
    if (targetShown) document.getElementById(target)?.scrollIntoView?.({ block: 'start' })
  }, [target, targetShown])
  if (files.length === 0) return <EmptyState message={t('diff.empty')} />
  const additions = files.reduce((n, f) => n + f.additions, 0)
  const deletions = files.reduce((n, f) => n + f.deletions, 0)
  return (
    <div className="diff stack">
      <div className="diff-toolbar">
        <p className="muted">
          {t('diff.summary', { count: files.length, files: fmt.count(files.length), additions: fmt.count(additions), deletions: fmt.count(deletions) })}
        </p>
        {toolbar}
        <div className="button-row" role="group" aria-label={t('diff.layout')}>
          {(['unified', 'split'] as const).map((m) => (
            <Button key={m} size="sm" variant={mode === m ? 'secondary' : 'ghost'} aria-pressed={mode === m} onClick={() => setMode(m)}>
              {t(`diff.${m}`)}
            </Button>
          ))}
        </div>
      </div>
      {page.shown.map(({ file, rows, cut }) => {
        const isFolded = folded?.(file) ?? false
        return (
          <section key={`${file.oldPath}->${file.newPath}`} id={diffFileId(file)} className={`card diff-file${isFolded ? ' folded' : ''}`} aria-label={filePath(file)}>
            <FileHeader file={file} actions={fileActions?.(file)} />
            {!isFolded && (
              <>
                {file.binary ? (
                  <p className="file-notice">{t('diff.binary')}</p>
                ) : file.hunks.length === 0 ? (
                  <p className="file-notice">{t('diff.noChanges')}</p>
                ) : (
                  <FileBody file={file} rows={rows} mode={mode} {...tools} />
                )}
                {cut && <p className="file-notice muted">{t('diff.cut')}</p>}
              </>
            )}
          </section>
        )
      })}
      {page.hidden > 0 && (
        <div className="diff-more">
          <Button variant="outline" onClick={() => setBudget((b) => b + pageRows)}>
            {t('diff.showMore', { count: page.hidden, lines: fmt.count(page.hidden) })}
          </Button>
        </div>
      )}
    </div>
  )
}

/**
 * A few lines of one file's diff, highlighted and without tools: the code a
 * review comment was made on (its diff_hunk, Gitea's and GitHub's field).
 */
export function DiffSnippet({ path, hunk }: { path: string; hunk: string }) {
  const file = useMemo(() => parseDiff(`--- a/${path}\n+++ b/${path}\n${hunk}\n`).at(0), [path, hunk])
  if (!file || file.hunks.length === 0) return null
  return (
    <div className="diff-snippet">
      <FileBody file={file} rows={unifiedRows(file)} mode="unified" />
    </div>
  )
}

function FileHeader({ file, actions }: { file: DiffFile; actions?: ReactNode }) {
  const { t } = useTranslation('repositories')
  return (
    <header className="diff-file-header">
      <span>
        <span className="mono">{file.status === 'renamed' ? `${file.oldPath} → ${file.newPath}` : filePath(file)}</span>{' '}
        <span className="badge">{t(`diff.status.${file.status}`)}</span>{' '}
        <span className="diff-add-count">+{file.additions}</span> <span className="diff-del-count">−{file.deletions}</span>
      </span>
      {actions}
    </header>
  )
}

/** A file's hunks in the chosen layout, highlighted once the grammar has loaded. */
function FileBody({ file, rows, mode, ...tools }: { file: DiffFile; rows: unknown[]; mode: DiffMode } & LineTools) {
  const html = useDiffHighlight(file)
  return mode === 'split' ? (
    <SplitTable file={file} rows={rows as ReturnType<typeof splitRows>} html={html} {...tools} />
  ) : (
    <UnifiedTable file={file} rows={rows as ReturnType<typeof unifiedRows>} html={html} {...tools} />
  )
}

/** A line's code: highlighted (highlight.js escapes the source) or as plain text. */
function Code({ line, html }: { line: DiffLine; html: Highlighted }) {
  const h = html?.get(line)
  return h === undefined ? <>{line.text}</> : <span className="hljs" dangerouslySetInnerHTML={{ __html: h }} />
}

function CommentButton({ anchor, onComment }: { anchor: LineAnchor; onComment?: (a: LineAnchor) => void }) {
  const { t } = useTranslation('repositories')
  if (!onComment) return null
  return (
    <button type="button" className="diff-comment-button" aria-label={t('diff.commentOn', { path: anchor.path, line: anchor.line, side: t(`diff.side.${anchor.side}`) })} onClick={() => onComment(anchor)}>
      +
    </button>
  )
}

const SIGN = { add: '+', del: '-', context: ' ' } as const

function UnifiedTable({ file, rows, html, renderBelow, onComment }: { file: DiffFile; rows: ReturnType<typeof unifiedRows>; html: Highlighted } & LineTools) {
  const { t } = useTranslation('repositories')
  return (
    <div className="table-scroll">
      <table className="diff-table diff-unified">
        <caption className="sr-only">{t('diff.caption', { path: filePath(file) })}</caption>
        <tbody>
          {rows.map((row, i) => {
            if (row.type === 'hunk') {
              return (
                <tr key={i} className="diff-hunk">
                  <td colSpan={4}>{row.hunk.header}</td>
                </tr>
              )
            }
            const { line } = row
            const anchor = anchorOf(file, line)
            const below = renderBelow?.(anchor)
            return (
              <Fragment key={i}>
                <tr className={`diff-${line.kind}`}>
                  <td className="diff-no">{line.oldNo ?? ''}</td>
                  <td className="diff-no">{line.newNo ?? ''}</td>
                  <td className="diff-tool">
                    <CommentButton anchor={anchor} onComment={onComment} />
                  </td>
                  <td className="diff-code">
                    <span className="diff-sign" aria-hidden="true">
                      {SIGN[line.kind]}
                    </span>
                    <Code line={line} html={html} />
                    {line.noNewline && <span className="muted diff-eof"> {t('diff.noNewline')}</span>}
                  </td>
                </tr>
                {below && (
                  <tr className="diff-extra">
                    <td colSpan={4}>{below}</td>
                  </tr>
                )}
              </Fragment>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function SplitSide({ file, line, html, onComment }: { file: DiffFile; line: DiffLine | null; html: Highlighted; onComment?: (a: LineAnchor) => void }) {
  if (!line) return <td colSpan={3} className="diff-blank" />
  const side = line.kind === 'del' ? 'old' : 'new'
  const no = side === 'old' ? line.oldNo : line.newNo
  return (
    <>
      <td className="diff-no">{no}</td>
      <td className="diff-tool">
        <CommentButton anchor={anchorOf(file, line)} onComment={onComment} />
      </td>
      <td className={`diff-code diff-${line.kind}`}>
        <span className="diff-sign" aria-hidden="true">
          {SIGN[line.kind]}
        </span>
        <Code line={line} html={html} />
      </td>
    </>
  )
}

function SplitTable({ file, rows, html, renderBelow, onComment }: { file: DiffFile; rows: ReturnType<typeof splitRows>; html: Highlighted } & LineTools) {
  const { t } = useTranslation('repositories')
  return (
    <div className="table-scroll">
      <table className="diff-table diff-split">
        <caption className="sr-only">{t('diff.caption', { path: filePath(file) })}</caption>
        <tbody>
          {rows.map((row, i) => {
            if (row.type === 'hunk') {
              return (
                <tr key={i} className="diff-hunk">
                  <td colSpan={6}>{row.hunk.header}</td>
                </tr>
              )
            }
            // An unchanged line is on both sides; its comments belong to the new side only.
            const left = row.left && row.left.kind === 'context' ? null : row.left
            const belowLeft = left ? renderBelow?.(anchorOf(file, left)) : null
            const belowRight = row.right ? renderBelow?.(anchorOf(file, row.right)) : null
            return (
              <Fragment key={i}>
                <tr>
                  <SplitSide file={file} line={row.left} html={html} onComment={row.left?.kind === 'context' ? undefined : onComment} />
                  <SplitSide file={file} line={row.right} html={html} onComment={onComment} />
                </tr>
                {(belowLeft || belowRight) && (
                  <tr className="diff-extra">
                    <td colSpan={3}>{belowLeft}</td>
                    <td colSpan={3}>{belowRight}</td>
                  </tr>
                )}
              </Fragment>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
