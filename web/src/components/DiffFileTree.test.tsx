import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { diffFileId, parseDiff } from '@/lib/forge/diff'
import { preloadNamespaces } from '@/test/render'
import { DiffFileTree, fileTree } from './DiffFileTree'

preloadNamespaces('repositories')

const file = (path: string, plus: number, minus: number) =>
  `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1,${minus} +1,${plus} @@\n${'-old\n'.repeat(minus)}${'+new\n'.repeat(plus)}`
const FILES = parseDiff(file('src/mill.go', 2, 1) + file('src/gear/teeth/cog.go', 3, 0) + file('README.md', 1, 1))

describe('DiffFileTree', () => {
  it('nests the files in folders, folders first, a folder of one folder shown as one', () => {
    const tree = fileTree(FILES)
    expect(tree.map((n) => n.name)).toEqual(['src', 'README.md'])
    const src = tree[0]
    expect(src.kind === 'folder' && src.children.map((n) => n.name)).toEqual(['gear/teeth', 'mill.go'])
  })

  it('links each file to its diff with its additions and deletions, and folds folders', () => {
    render(<DiffFileTree files={FILES} viewed={(f) => f.newPath === 'README.md'} />)
    const nav = screen.getByRole('navigation', { name: 'Changed files' })
    const mill = within(nav).getByRole('link', { name: /^mill\.go/ })
    expect(mill.getAttribute('href')).toBe(`#${diffFileId(FILES[0])}`)
    expect(mill.textContent).toContain('+2')
    expect(mill.textContent).toContain('−1')
    expect(within(nav).getByRole('link', { name: /README\.md \(viewed\)/ })).toBeTruthy()
    const src = within(nav).getByRole('button', { name: /src/ })
    expect(src.getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(src)
    expect(src.getAttribute('aria-expanded')).toBe('false')
    expect(within(nav).queryByRole('link', { name: /^mill\.go/ })).toBeNull()
    expect(within(nav).getByRole('link', { name: /README\.md/ })).toBeTruthy()
  })

  it('scrolls to a file\'s diff, and on narrow screens opens behind a toggle', () => {
    const { container } = render(
      <>
        <DiffFileTree files={FILES} />
        <section id={diffFileId(FILES[1])}>cog</section>
      </>,
    )
    const toggle = screen.getByRole('button', { name: 'File tree' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(container.querySelector('.diff-tree.shown')).not.toBeNull()
    const scrolled: string[] = []
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id)
    }
    fireEvent.click(screen.getByRole('link', { name: /^cog\.go/ }))
    expect(scrolled).toEqual([diffFileId(FILES[1])])
    expect(window.location.hash).toBe(`#${diffFileId(FILES[1])}`)
    // Picking a file closes the narrow screen's tree.
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
  })
})
