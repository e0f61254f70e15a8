import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { REPO, repoFixture, stubApi, text } from '@/test/forge'
import { json, preloadNamespaces, renderScreen, signIn } from '@/test/render'
import PullRequestScreen from './PullRequestScreen'
import { pullFixture } from './testing'

preloadNamespaces('pulls', 'issues', 'repositories', 'wallet')

const PR = pullFixture()

const diffOf = (millBlob: string, speed: number) =>
  `diff --git a/src/mill.go b/src/mill.go\nindex ${'1'.repeat(40)}..${millBlob} 100644\n--- a/src/mill.go\n+++ b/src/mill.go\n@@ -1,2 +1,2 @@\n package mill\n-const speed = 1\n+const speed = ${speed}\n` +
  `diff --git a/README.md b/README.md\nindex ${'3'.repeat(40)}..${'4'.repeat(40)} 100644\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# Mill\n+# The mill\n`

/** The node's Viewed marks of the signed-in reviewer, by path, kept across the page's openings as the node keeps them. */
type Marks = Map<string, string>

function api(diff: string, marks: Marks = new Map(), refuse = false) {
  const mark = (body: unknown) => {
    if (refuse) return json({ message: 'version must be the file version', code: 'invalid' }, 422)
    const { path, version } = body as { path: string; version: string }
    marks.set(path, version)
    return new Response(null, { status: 204 })
  }
  return stubApi({
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${REPO}/pulls/4`]: PR,
    [`GET ${REPO}/pulls/4/reviews`]: [],
    [`GET ${REPO}/pulls/4.diff`]: text(diff),
    [`GET ${REPO}/pulls/4/viewed`]: () => [...marks].map(([path, version]) => ({ path, version })),
    [`PUT ${REPO}/pulls/4/viewed`]: mark,
    [`DELETE ${REPO}/pulls/4/viewed`]: (body: unknown) => {
      marks.delete((body as { path: string }).path)
      return new Response(null, { status: 204 })
    },
  })
}

const open = () => renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4?tab=files')
const millSection = () => screen.getByRole('region', { name: 'src/mill.go' })

afterEach(() => localStorage.clear())

/** The screen's first paint waits for lazy chunks; on a busy machine that takes more than a second. */
const LOAD = { timeout: 5000 }

describe('the Files tab', () => {
  it('lists the changed files in a tree beside the diff', async () => {
    api(diffOf('2'.repeat(40), 2))
    open()
    const nav = await screen.findByRole('navigation', { name: 'Changed files' }, LOAD)
    expect(within(nav).getByRole('button', { name: /src/ }).getAttribute('aria-expanded')).toBe('true')
    const link = within(nav).getByRole('link', { name: /^mill\.go/ })
    expect(link.getAttribute('href')).toBe(`#${(await screen.findByRole('region', { name: 'src/mill.go' })).id}`)
  }, 10000)

  it('folds a file marked viewed, keeps the mark for the user on the node, and drops it when the file changes', async () => {
    signIn()
    const marks: Marks = new Map()
    const sent = api(diffOf('2'.repeat(40), 2), marks)
    open()
    const box = await screen.findByRole('checkbox', { name: 'Viewed src/mill.go' }, LOAD)
    expect(screen.getByText('0 / 2 files viewed')).toBeTruthy()
    expect(millSection().querySelector('.diff-table')).not.toBeNull()
    fireEvent.click(box)
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true))
    expect(millSection().querySelector('.diff-table')).toBeNull()
    expect(screen.getByText('1 / 2 files viewed')).toBeTruthy()
    await waitFor(() => expect([...marks]).toEqual([['src/mill.go', '2'.repeat(40)]]))
    expect(sent.sent('PUT', `${REPO}/pulls/4/viewed`).map((c) => c.body)).toEqual([{ path: 'src/mill.go', version: '2'.repeat(40) }])

    // Kept: the page opened again (in any browser: nothing is in its storage) shows it viewed.
    cleanup()
    localStorage.clear()
    api(diffOf('2'.repeat(40), 2), marks)
    open()
    expect(((await screen.findByRole('checkbox', { name: 'Viewed src/mill.go' }, LOAD)) as HTMLInputElement).checked).toBe(true)
    expect(screen.getByText('1 / 2 files viewed')).toBeTruthy()
    expect(screen.getByRole('link', { name: /^mill\.go \(viewed\)/ })).toBeTruthy()

    // A push changed the file: a new blob, so it is no longer viewed.
    cleanup()
    api(diffOf('5'.repeat(40), 3), marks)
    open()
    expect(((await screen.findByRole('checkbox', { name: 'Viewed src/mill.go' }, LOAD)) as HTMLInputElement).checked).toBe(false)
    expect(screen.getByText('0 / 2 files viewed')).toBeTruthy()
    expect(millSection().querySelector('.diff-table')).not.toBeNull()

    // Unmarking takes the mark off on the node.
    cleanup()
    api(diffOf('2'.repeat(40), 2), marks)
    open()
    const again = await screen.findByRole('checkbox', { name: 'Viewed src/mill.go', checked: true }, LOAD)
    fireEvent.click(again)
    await waitFor(() => expect(marks.size).toBe(0))
    expect(screen.getByText('0 / 2 files viewed')).toBeTruthy()
  }, 20000)

  it('shows a mark under the click, even while the node\'s marks are still being read, and keeps it when a stale read lands', async () => {
    signIn()
    const marks: Marks = new Map()
    const stub = api(diffOf('2'.repeat(40), 2), marks)
    let answerRead = (_: unknown) => {}
    const slowRead = new Promise((resolve) => (answerRead = resolve))
    stub.answers[`GET ${REPO}/pulls/4/viewed`] = () => slowRead
    open()
    const box = (await screen.findByRole('checkbox', { name: 'Viewed src/mill.go' }, LOAD)) as HTMLInputElement
    fireEvent.click(box)
    // No waiting: the box changes in the click's own render.
    expect(box.checked).toBe(true)
    expect(screen.getByText('1 / 2 files viewed')).toBeTruthy()
    // The read started before the click answers without the mark; the box stays marked.
    answerRead([])
    stub.answers[`GET ${REPO}/pulls/4/viewed`] = () => [...marks].map(([path, version]) => ({ path, version }))
    await waitFor(() => expect([...marks]).toEqual([['src/mill.go', '2'.repeat(40)]]))
    await waitFor(() => expect(stub.sent('GET', `${REPO}/pulls/4/viewed`).length).toBeGreaterThan(1))
    expect(box.checked).toBe(true)
    expect(screen.getByText('1 / 2 files viewed')).toBeTruthy()
  }, 10000)

  it('takes back a mark the node refuses, and says so', async () => {
    signIn()
    api(diffOf('2'.repeat(40), 2), new Map(), true)
    open()
    const box = await screen.findByRole('checkbox', { name: 'Viewed src/mill.go' }, LOAD)
    fireEvent.click(box)
    expect((await screen.findByRole('alert')).textContent).toBe('The node did not keep that Viewed mark. Try again.')
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(false))
    expect(screen.getByText('0 / 2 files viewed')).toBeTruthy()
  }, 10000)

  it('opens the review form in a popover: focus moves in, Escape closes it and focus returns', async () => {
    signIn()
    api(diffOf('2'.repeat(40), 2))
    open()
    const button = await screen.findByRole('button', { name: 'Review changes' }, LOAD)
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(button)
    const dialog = screen.getByRole('dialog', { name: 'Finish your review' })
    expect(button.getAttribute('aria-expanded')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Summary')))
    expect(within(dialog).getByRole('radio', { name: 'Approve' })).toBeTruthy()
    expect(within(dialog).getByRole('radio', { name: 'Request changes' })).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('Summary'), { target: { value: 'Looks right' } })
    fireEvent.keyDown(within(dialog).getByLabelText('Summary'), { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(button)
    // Closed, it keeps what was typed.
    fireEvent.click(button)
    expect((screen.getByLabelText('Summary') as HTMLTextAreaElement).value).toBe('Looks right')
    // A click outside closes it too.
    fireEvent.pointerDown(document.body)
    expect(screen.queryByRole('dialog')).toBeNull()
  }, 10000)
})
