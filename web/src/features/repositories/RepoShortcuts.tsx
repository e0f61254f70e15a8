import { type ReactNode, useCallback, useState } from 'react'
import { type Repository, repoHref } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { GoToFileDialog } from './GoToFile'
import { GoToFileContext } from './goToFileContext'
import { useShortcuts } from './shortcuts'
import { ShortcutsDialog } from './ShortcutsDialog'

/** The page's search box (an issue filter, say), if it has one. */
function searchBox(): HTMLInputElement | null {
  return document.querySelector<HTMLInputElement>('[role="search"] input, input[type="search"]')
}

/**
 * The keyboard shortcuts of a repository's pages and the dialogs they open.
 * gitRef is the ref "Go to file" searches: the one the code view shows, or
 * the default branch elsewhere.
 */
export function RepoShortcuts({ repo, gitRef, children }: { repo: Repository; gitRef: string; children: ReactNode }) {
  const [open, setOpen] = useState<'finder' | 'help' | null>(null)
  const openFinder = useCallback(() => setOpen('finder'), [])
  const o = repo.owner.login
  const n = repo.name
  useShortcuts((action) => {
    switch (action) {
      case 'search': {
        // Pages without a search box search their files.
        const box = searchBox()
        if (box) box.focus()
        else setOpen('finder')
        break
      }
      case 'goToFile':
        setOpen('finder')
        break
      case 'help':
        setOpen('help')
        break
      case 'code':
        nav.go(repoHref.home(o, n))
        break
      case 'issues':
        nav.go(repoHref.section(o, n, 'issues'))
        break
      case 'pulls':
        nav.go(repoHref.section(o, n, 'pulls'))
        break
    }
  })
  return (
    <GoToFileContext value={openFinder}>
      {children}
      {open === 'finder' && <GoToFileDialog repo={repo} gitRef={gitRef} onClose={() => setOpen(null)} />}
      {open === 'help' && <ShortcutsDialog onClose={() => setOpen(null)} />}
    </GoToFileContext>
  )
}
