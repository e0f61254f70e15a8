import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { diffFileId, parseDiff } from '@/lib/forge/diff'
import { splitHighlighted } from '@/lib/highlight'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { DiffView } from './DiffView'

preloadNamespaces('repositories')

const GO = 'diff --git a/mill.go b/mill.go\n--- a/mill.go\n+++ b/mill.go\n@@ -1,3 +1,3 @@\n package mill\n-const speed = 1\n+const speed = 2\n /* slow\n'

describe('DiffView highlighting', () => {
  it('colours the code of a known language, old and new side, keeping the diff marks', async () => {
    renderScreen(<DiffView files={parseDiff(GO)} />)
    await waitFor(() => expect(document.querySelectorAll('.diff-code .hljs-keyword').length).toBeGreaterThanOrEqual(3))
    const added = screen.getByText((_, el) => el?.tagName === 'TD' && el.textContent === '+const speed = 2')
    expect(added.closest('tr')?.className).toContain('diff-add')
    expect(added.querySelector('.hljs-keyword')?.textContent).toBe('const')
    expect(added.querySelector('.hljs-number')?.textContent).toBe('2')
    const removed = screen.getByText((_, el) => el?.tagName === 'TD' && el.textContent === '-const speed = 1')
    expect(removed.querySelector('.hljs-number')?.textContent).toBe('1')
  })

  it('leaves a file of an unknown language as plain text', async () => {
    renderScreen(<DiffView files={parseDiff(GO.replaceAll('mill.go', 'mill.xyz'))} />)
    expect(await screen.findByText('const speed = 2')).toBeTruthy()
    expect(document.querySelector('.hljs')).toBeNull()
  })
})

describe('DiffView folded files', () => {
  it('draws a folded file as its header only, and lets it take none of the page', () => {
    const two = parseDiff(GO + GO.replaceAll('mill.go', 'gear.go'))
    renderScreen(<DiffView files={two} pageRows={6} folded={(f) => f.newPath === 'mill.go'} fileActions={(f) => <span>tools for {f.newPath}</span>} />)
    const mill = screen.getByRole('region', { name: 'mill.go' })
    expect(mill.querySelector('table')).toBeNull()
    expect(mill.textContent).toContain('tools for mill.go')
    const gear = screen.getByRole('region', { name: 'gear.go' })
    expect(gear.querySelectorAll('tr')).toHaveLength(5)
  })
})

describe('DiffView and the address', () => {
  it('draws and scrolls to the file the address names, even past the page', async () => {
    const two = parseDiff(GO + GO.replaceAll('mill.go', 'gear.go'))
    const scrolled: string[] = []
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id)
    }
    renderScreen(<DiffView files={two} pageRows={3} />)
    expect(screen.queryByRole('region', { name: 'gear.go' })).toBeNull()
    act(() => {
      window.location.hash = diffFileId(two[1])
      window.dispatchEvent(new HashChangeEvent('hashchange'))
    })
    const gear = await screen.findByRole('region', { name: 'gear.go' })
    expect(gear.querySelectorAll('tr')).toHaveLength(5)
    expect(scrolled).toContain(diffFileId(two[1]))
  })
})

describe('splitHighlighted', () => {
  it('closes and reopens spans that cross a line break', () => {
    expect(splitHighlighted('a<span class="c">/* x\ny */</span>b')).toEqual(['a<span class="c">/* x</span>', '<span class="c">y */</span>b'])
  })
})
