import { type MouseEvent, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from './Button'
import { type DiffFile, diffFileId, filePath } from '@/lib/forge/diff'
import './diffTree.css'

interface Folder {
  kind: 'folder'
  name: string
  path: string
  children: TreeNode[]
}
type TreeNode = Folder | { kind: 'file'; name: string; file: DiffFile }

/**
 * The changed files as folders and files, folders first, each level sorted
 * by name; a folder with a single folder inside is shown as one ("src/lib").
 */
export function fileTree(files: DiffFile[]): TreeNode[] {
  const root: Folder = { kind: 'folder', name: '', path: '', children: [] }
  for (const file of files) {
    const parts = filePath(file).split('/')
    let at = root
    for (const part of parts.slice(0, -1)) {
      let next = at.children.find((c): c is Folder => c.kind === 'folder' && c.name === part)
      if (!next) {
        next = { kind: 'folder', name: part, path: at.path ? `${at.path}/${part}` : part, children: [] }
        at.children.push(next)
      }
      at = next
    }
    at.children.push({ kind: 'file', name: parts[parts.length - 1], file })
  }
  const tidy = (nodes: TreeNode[]): TreeNode[] =>
    nodes
      .map((n) => {
        if (n.kind !== 'folder') return n
        let f = n
        while (f.children.length === 1 && f.children[0].kind === 'folder') {
          const only: Folder = f.children[0]
          f = { ...only, name: `${f.name}/${only.name}` }
        }
        return { ...f, children: tidy(f.children) }
      })
      .sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1))
  return tidy(root.children)
}

/**
 * A tree of a diff's files beside it: folders fold, a file links to its
 * diff and shows its additions and deletions (and, given viewed, whether
 * the reviewer has viewed it). On narrow screens it hides behind a toggle.
 */
export function DiffFileTree({ files, viewed, onOpen }: { files: DiffFile[]; viewed?: (f: DiffFile) => boolean; onOpen?: (f: DiffFile) => void }) {
  const { t } = useTranslation('repositories')
  const tree = useMemo(() => fileTree(files), [files])
  const [shown, setShown] = useState(false)
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set())
  const toggle = (path: string) =>
    setFolded((s) => {
      const next = new Set(s)
      if (!next.delete(path)) next.add(path)
      return next
    })
  const open = (e: MouseEvent, file: DiffFile) => {
    onOpen?.(file)
    setShown(false)
    const el = document.getElementById(diffFileId(file))
    // Not drawn yet (further down than the page): the new address has the diff view draw it.
    if (!el) return
    e.preventDefault()
    el.scrollIntoView?.({ block: 'start' })
    window.history.replaceState(window.history.state, '', `#${el.id}`)
  }
  const render = (nodes: TreeNode[]) => (
    <ul className="plain-list">
      {nodes.map((n) =>
        n.kind === 'folder' ? (
          <li key={`d:${n.path}`}>
            <button type="button" className="diff-tree-folder" aria-expanded={!folded.has(n.path)} onClick={() => toggle(n.path)}>
              <span aria-hidden="true" className="diff-tree-chevron">
                {folded.has(n.path) ? '▸' : '▾'}
              </span>{' '}
              {n.name}
            </button>
            {!folded.has(n.path) && render(n.children)}
          </li>
        ) : (
          <li key={`f:${filePath(n.file)}`}>
            <a href={`#${diffFileId(n.file)}`} className={`diff-tree-file${viewed?.(n.file) ? ' viewed' : ''}`} title={filePath(n.file)} onClick={(e) => open(e, n.file)}>
              <span className="diff-tree-name">{n.name}</span>
              {viewed?.(n.file) && (
                <>
                  {' '}
                  <span className="sr-only">({t('diff.tree.viewed')})</span>
                </>
              )}{' '}
              <span className="diff-tree-counts">
                <span className="diff-add-count">+{n.file.additions}</span> <span className="diff-del-count">−{n.file.deletions}</span>
              </span>
            </a>
          </li>
        ),
      )}
    </ul>
  )
  return (
    <div className={`diff-tree${shown ? ' shown' : ''}`}>
      <Button variant="outline" size="sm" className="diff-tree-toggle" aria-expanded={shown} onClick={() => setShown((s) => !s)}>
        {t('diff.tree.toggle')}
      </Button>
      <nav className="diff-tree-nav" aria-label={t('diff.tree.label')}>
        {render(tree)}
      </nav>
    </div>
  )
}
