import { Profiler } from 'react'
import { render, screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '@/i18n/i18n'
import { NotFoundError, QueryState } from './QueryState'

type Query = { data: string | undefined; isPending: boolean; isError: boolean; error: Error | null; refetch: () => void }

const pending: Query = { data: undefined, isPending: true, isError: false, error: null, refetch: () => {} }
const loaded = (data: string): Query => ({ data, isPending: false, isError: false, error: null, refetch: () => {} })

/**
 * Renders a QueryState and returns what each commit showed, so a test can
 * tell whether data came in the same commit as the query's answer.
 */
function renderCommits(query: Query, defer = true) {
  const shown: string[] = []
  const tree = (q: Query) => (
    <Profiler id="query" onRender={() => shown.push(document.body.textContent ?? '')}>
      <QueryState query={q} defer={defer}>
        {(d) => <p>{d}</p>}
      </QueryState>
    </Profiler>
  )
  const { rerender } = render(tree(query))
  return { shown, rerender: (q: Query) => rerender(tree(q)) }
}

describe('QueryState', () => {
  beforeAll(() => {
    initI18n()
  })

  it('with defer, shows the loading state, then the data in a commit of its own after the answer', () => {
    const { shown, rerender } = renderCommits(pending)
    expect(screen.getByRole('status')).toBeTruthy()
    const before = shown.length
    rerender(loaded('the readme'))
    // The answer's own commit still shows the loading state: the data
    // renders as a deferred value, in slices that let input through.
    expect(shown[before]).not.toContain('the readme')
    expect(shown.at(-1)).toContain('the readme')
    expect(screen.getByText('the readme')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('with defer, keeps the previous data on screen while the new data renders', () => {
    const { shown, rerender } = renderCommits(loaded('first'))
    const before = shown.length
    rerender(loaded('second'))
    expect(shown[before]).toContain('first')
    expect(shown.at(-1)).toContain('second')
  })

  it('renders data in the answer’s own commit unless deferred', () => {
    const { shown, rerender } = renderCommits(pending, false)
    const before = shown.length
    rerender(loaded('the list'))
    expect(shown[before]).toContain('the list')
  })

  it('shows a retry for a failed query and no retry for a missing thing', () => {
    const failed = (error: Error): Query => ({ data: undefined, isPending: false, isError: true, error, refetch: () => {} })
    const { rerender } = renderCommits(failed(new Error('down')))
    expect(screen.getByRole('alert').querySelector('button')).not.toBeNull()
    rerender(failed(new NotFoundError('gone')))
    expect(screen.getByRole('alert').querySelector('button')).toBeNull()
  })
})
