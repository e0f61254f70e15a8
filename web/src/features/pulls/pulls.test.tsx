import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { codeCell, commitFixture, noContent, REPO, repoFixture, stubApi, text } from '@/test/forge'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import type { PullRequest } from './api'
import { NoPullRequests } from './EmptyStates'
import NewPullScreen from './NewPullScreen'
import PullListScreen from './PullListScreen'
import PullRequestScreen from './PullRequestScreen'
import { schemaFixture } from '@/test/schemaFixture'
import { pullFixture } from './testing'

preloadNamespaces('pulls', 'issues', 'repositories', 'wallet')

let go: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => {
  go.mockRestore()
})

function pull(overrides: Partial<PullRequest> = {}): PullRequest {
  return pullFixture({ body: 'Turns twice as fast.', body_html: '<p>Turns twice as fast.</p>', ...overrides })
}

/** Matches a diff line's cell by its code (highlighting splits it into spans), after its +/- mark. */

/** A pull request as the issue list sends it (Gitea's pull_request meta). */
const listed = (pr: PullRequest) => ({ ...pr, pull_request: { merged: pr.merged } })

const DIFF = 'diff --git a/mill.go b/mill.go\n--- a/mill.go\n+++ b/mill.go\n@@ -1,2 +1,2 @@\n package mill\n-const speed = 1\n+const speed = 2\n'
const maintainer = repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) })

function prApi(pr: PullRequest = pull(), extra: Record<string, unknown> = {}, repo = repoFixture()) {
  return stubApi({
    [`GET ${REPO}`]: repo,
    [`GET ${REPO}/pulls/4`]: pr,
    [`GET ${REPO}/issues/4/comments`]: [],
    [`GET ${REPO}/issues/4/timeline`]: [],
    [`GET ${REPO}/pulls/4/reviews`]: [],
    [`GET ${REPO}/pulls/4.diff`]: text(DIFF),
    [`GET ${REPO}/labels`]: [],
    ...extra,
  })
}

describe('PullListScreen', () => {
  it('reads "No pull requests found" for an empty pull request list', async () => {
    renderScreen(<NoPullRequests />, '/')
    expect((await screen.findByRole('status')).textContent).toBe('No pull requests found')
  })

  it('shows the empty state and a link to open one', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/issues`]: [] })
    renderScreen(<PullListScreen />, '/ada/engine/pulls')
    expect(await screen.findByText('No pull requests found')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'New pull request' }).getAttribute('href')).toBe('/ada/engine/pulls/new')
  })

  it('lists pull requests, merged ones marked so', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/issues`]: [listed(pull()), listed(pull({ id: 202, number: 5, title: 'Old', state: 'closed', merged: true }))],
    })
    renderScreen(<PullListScreen />, '/ada/engine/pulls?state=all')
    expect((await screen.findByRole('link', { name: 'Faster mill' })).getAttribute('href')).toBe('/ada/engine/pulls/4')
    expect(screen.getByText('Merged')).toBeTruthy()
    const sent = new URL(api.sent('GET', `${REPO}/issues`)[0].url, 'http://x').searchParams
    expect([sent.get('state'), sent.get('type')]).toEqual(['all', 'pulls'])
  })
})

describe('NewPullScreen', () => {
  it('opens a pull request from a branch into the default branch', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/branches`]: [{ name: 'main', commit: { id: 'a', message: '' } }, { name: 'fast', commit: { id: 'b', message: '' } }],
      [`POST ${REPO}/pulls`]: pull({ number: 6 }),
    })
    signIn()
    renderScreen(<NewPullScreen />, '/ada/engine/pulls/new')
    const base = (await screen.findByLabelText('Base branch (merge into)')) as HTMLSelectElement
    expect(base.value).toBe('main')
    expect((screen.getByLabelText('Compare branch (merge from)') as HTMLSelectElement).value).toBe('fast')
    fireEvent.click(screen.getByRole('button', { name: 'Create pull request' }))
    expect(await screen.findByText('Enter a title.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Faster mill' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create pull request' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/pulls/6'))
    expect(api.sent('POST', `${REPO}/pulls`)[0].body).toEqual({ head: 'fast', base: 'main', title: 'Faster mill', body: '' })
  })

  it('refuses the same branch on both sides', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/branches`]: [{ name: 'main', commit: { id: 'a', message: '' } }] })
    signIn()
    renderScreen(<NewPullScreen />, '/ada/engine/pulls/new')
    fireEvent.change(await screen.findByLabelText('Compare branch (merge from)'), { target: { value: 'main' } })
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'x' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create pull request' }))
    expect(await screen.findByText('Choose two different branches.')).toBeTruthy()
  })
})

describe('PullRequestScreen', () => {
  it('shows the conversation with reviews and their line comments', async () => {
    prApi(pull(), {
      [`GET ${REPO}/issues/4/comments`]: [{ id: 1, user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: 'Nice', body_html: '<p>Nice</p>', created_at: '2026-01-02T00:00:00Z' }],
      [`GET ${REPO}/issues/4/timeline`]: [
        { id: 1, type: 'comment', user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: 'Nice', body_html: '<p>Nice</p>', created_at: '2026-01-02T00:00:00Z', updated_at: '2026-01-02T00:00:00Z' },
      ],
      [`GET ${REPO}/pulls/4/reviews`]: [{ id: 9, user: schemaFixture('ForgeUser', { id: 3, login: 'cy' }), state: 'APPROVED', body: '', commit_id: 'b', comments_count: 1, submitted_at: '2026-01-03T00:00:00Z' }],
      [`GET ${REPO}/pulls/4/reviews/9/comments`]: [{ id: 1, body: 'Good constant', body_html: '<p>Good constant</p>', user: schemaFixture('ForgeUser', { id: 3, login: 'cy' }), pull_request_review_id: 9, path: 'mill.go', position: 2, original_position: 0, created_at: '2026-01-03T00:00:00Z' }],
    })
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    expect(await screen.findByRole('heading', { level: 1, name: 'Faster mill #4' })).toBeTruthy()
    expect(screen.getByText(/wants to merge fast into main/)).toBeTruthy()
    expect(await screen.findByText('Nice')).toBeTruthy()
    const review = await screen.findByRole('article', { name: 'cy approved' })
    expect(await within(review).findByText('Good constant')).toBeTruthy()
    expect(within(review).getByText('mill.go:2')).toBeTruthy()
    expect(screen.getByText('Only the repository\'s maintainers can merge.')).toBeTruthy()
  })

  it('shows a line comment under the diff lines it was made on', async () => {
    const hunk = '@@ -1,2 +1,2 @@\n package mill\n-const speed = 1\n+const speed = 2'
    prApi(pull(), {
      [`GET ${REPO}/pulls/4/reviews`]: [{ id: 9, user: schemaFixture('ForgeUser', { id: 3, login: 'cy' }), state: 'COMMENT', body: '', commit_id: 'b', comments_count: 1, submitted_at: '2026-01-03T00:00:00Z' }],
      [`GET ${REPO}/pulls/4/reviews/9/comments`]: [
        { id: 1, body: 'Why 2?', body_html: '<p>Why 2?</p>', user: schemaFixture('ForgeUser', { id: 3, login: 'cy' }), pull_request_review_id: 9, path: 'mill.go', position: 2, original_position: 0, diff_hunk: hunk, created_at: '2026-01-03T00:00:00Z' },
      ],
    })
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    const review = await screen.findByRole('article', { name: 'cy reviewed' }, { timeout: 5000 })
    expect(await within(review).findByText('Why 2?')).toBeTruthy()
    const context = within(review).getByRole('table', { name: 'Changes to mill.go' })
    const rows = [...context.querySelectorAll('tr')].map((r) => [r.className, r.querySelector('.diff-code')?.textContent ?? r.textContent])
    expect(rows).toEqual([
      ['diff-hunk', '@@ -1,2 +1,2 @@'],
      ['diff-context', ' package mill'],
      ['diff-del', '-const speed = 1'],
      ['diff-add', '+const speed = 2'],
    ])
    // The context comes before the comment, and is highlighted as the diff is.
    expect(context.compareDocumentPosition(within(review).getByText('Why 2?')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    await waitFor(() => expect(context.querySelector('.diff-add .hljs-number')?.textContent).toBe('2'))
  })

  it('lets a maintainer merge with the chosen style', async () => {
    const api = prApi(pull(), { [`POST ${REPO}/pulls/4/merge`]: new Response(null, { status: 200 }) }, maintainer)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    fireEvent.change(await screen.findByLabelText('Merge style'), { target: { value: 'squash' } })
    fireEvent.click(screen.getByRole('button', { name: 'Squash and merge' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/merge`)[0]?.body).toEqual({ Do: 'squash', head_commit_id: 'b'.repeat(40) }))
  })

  it('offers rebase-merge and fast-forward-only, and deletes the head branch when asked', async () => {
    const api = prApi(pull(), { [`POST ${REPO}/pulls/4/merge`]: new Response(null, { status: 200 }) }, maintainer)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    const styles = (await screen.findByLabelText('Merge style')) as HTMLSelectElement
    expect([...styles.options].map((o) => o.textContent)).toEqual([
      'Create a merge commit', 'Squash and merge', 'Rebase and merge', 'Rebase and create a merge commit', 'Fast-forward only',
    ])
    fireEvent.change(styles, { target: { value: 'rebase-merge' } })
    fireEvent.click(screen.getByLabelText('Delete the branch fast after merging'))
    fireEvent.click(screen.getByRole('button', { name: 'Rebase and merge (--no-ff)' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/merge`)[0]?.body).toEqual({ Do: 'rebase-merge', head_commit_id: 'b'.repeat(40), delete_branch_after_merge: true }))
  })

  it('shows why a fast-forward is refused, and offers no deletion of a protected head', async () => {
    const refusal = { message: 'main cannot be fast-forwarded to fast: it has commits fast does not have', code: 'not_fast_forward' }
    const repo = repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }), protected_branches: ['main', 'fast'] })
    prApi(pull(), { [`POST ${REPO}/pulls/4/merge`]: new Response(JSON.stringify(refusal), { status: 409 }) }, repo)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    fireEvent.change(await screen.findByLabelText('Merge style'), { target: { value: 'fast-forward-only' } })
    expect(screen.queryByLabelText('Delete the branch fast after merging')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Fast-forward' }))
    expect((await screen.findByText(refusal.message)).getAttribute('role')).toBe('alert')
    expect(screen.queryByText('This branch has conflicts that must be resolved.')).toBeNull()
  })

  it('names the conflicted files and does not offer the merge', async () => {
    prApi(pull({ mergeable: false, conflicted_files: ['mill.go', 'gears/cog.go'] }), {}, maintainer)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    const notice = await screen.findByText('This branch has conflicts that must be resolved.')
    const box = notice.closest('[role=alert]') as HTMLElement
    expect(within(box).getByText('mill.go')).toBeTruthy()
    expect(within(box).getByText('gears/cog.go')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Merge pull request' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('names the files when the server refuses a merge for conflicts', async () => {
    const api = prApi(pull(), { [`POST ${REPO}/pulls/4/merge`]: new Response(JSON.stringify({ message: 'merge conflict in mill.go', code: 'merge_conflict', files: ['mill.go'] }), { status: 409 }) }, maintainer)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    fireEvent.click(await screen.findByRole('button', { name: 'Merge pull request' }))
    const notice = await screen.findByText('This branch has conflicts that must be resolved.')
    expect(within(notice.closest('[role=alert]') as HTMLElement).getByText('mill.go')).toBeTruthy()
    expect(api.sent('POST', `${REPO}/pulls/4/merge`)[0].body).toEqual({ Do: 'merge', head_commit_id: 'b'.repeat(40) })
  })

  it('shows any other refusal to merge', async () => {
    prApi(pull(), { [`POST ${REPO}/pulls/4/merge`]: new Response(JSON.stringify({ message: 'only maintainers may merge', code: 'forbidden' }), { status: 403 }) }, maintainer)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    fireEvent.click(await screen.findByRole('button', { name: 'Merge pull request' }))
    expect((await screen.findByText('only maintainers may merge')).getAttribute('role')).toBe('alert')
  })

  it('lets the author close the pull request through its own endpoint', async () => {
    const api = prApi(pull({ user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }) }), { [`PATCH ${REPO}/pulls/4`]: pull({ state: 'closed' }) })
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    fireEvent.click(await screen.findByRole('button', { name: 'Close pull request' }))
    await waitFor(() => expect(api.sent('PATCH', `${REPO}/pulls/4`)[0]?.body).toEqual({ state: 'closed' }))
  })

  it('says who merged a merged pull request', async () => {
    prApi(pull({ merged: true, state: 'closed', merged_by: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), merged_at: '2026-01-04T00:00:00Z', merge_commit_sha: 'c'.repeat(40) }), {}, maintainer)
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    expect(await screen.findByRole('heading', { name: 'Merged' })).toBeTruthy()
    // The header names ada, who merged it, not bob, who opened it.
    expect(document.querySelector('.issue-header .muted a')?.textContent).toBe('ada')
    expect(screen.getByRole('link', { name: 'ccccccc' }).getAttribute('href')).toBe(`/ada/engine/commit/${'c'.repeat(40)}`)
    expect(screen.queryByRole('button', { name: 'Merge pull request' })).toBeNull()
  })

  it('collects inline comments into a review that requests changes', async () => {
    const api = prApi(pull(), { [`POST ${REPO}/pulls/4/reviews`]: { id: 10, state: 'REQUEST_CHANGES' } })
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4?tab=files')
    fireEvent.click(await screen.findByRole('button', { name: 'Comment on new line 2 of mill.go' }))
    fireEvent.change(screen.getByLabelText('Comment on line 2 of mill.go'), { target: { value: 'Too fast?' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add to review' }))
    expect(await screen.findByText('Too fast?')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Comment on old line 2 of mill.go' }))
    fireEvent.change(screen.getByLabelText('Comment on line 2 of mill.go'), { target: { value: 'Was fine' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add to review' }))
    expect(screen.getByText('2 comments wait for this review.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Review changes' }))
    fireEvent.click(screen.getByRole('radio', { name: 'Request changes' }))
    fireEvent.click(screen.getByRole('button', { name: 'Submit review' }))
    expect(await screen.findByText('Say what should change.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Summary'), { target: { value: 'Slow down' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit review' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/reviews`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/pulls/4/reviews`)[0].body).toEqual({
      event: 'REQUEST_CHANGES',
      body: 'Slow down',
      commit_id: 'b'.repeat(40),
      comments: [
        { path: 'mill.go', body: 'Too fast?', new_position: 2, old_position: 0 },
        { path: 'mill.go', body: 'Was fine', new_position: 0, old_position: 2 },
      ],
    })
    await waitFor(() => expect(screen.getByText('0 comments wait for this review.')).toBeTruthy())
  })

  it('saves a review with its line comments as pending', async () => {
    const api = prApi(pull(), { [`POST ${REPO}/pulls/4/reviews`]: { id: 1125899906842625, state: 'PENDING' } })
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4?tab=files')
    fireEvent.click(await screen.findByRole('button', { name: 'Comment on new line 2 of mill.go' }))
    fireEvent.change(screen.getByLabelText('Comment on line 2 of mill.go'), { target: { value: 'Too fast?' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add to review' }))
    fireEvent.click(screen.getByRole('button', { name: 'Review changes' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save as pending' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/reviews`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/pulls/4/reviews`)[0].body).toMatchObject({ event: 'PENDING', comments: [{ path: 'mill.go', body: 'Too fast?', new_position: 2 }] })
  })

  it('submits or discards the signed-in reviewer\'s pending review', async () => {
    const draft = { id: 1125899906842625, state: 'PENDING', user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: '', body_html: '', comments_count: 1, commit_id: 'b'.repeat(40), submitted_at: '2026-01-02T00:00:00Z' }
    const api = prApi(pull(), {
      [`GET ${REPO}/pulls/4/reviews`]: [draft],
      [`GET ${REPO}/pulls/4/reviews/${draft.id}/comments`]: [],
      [`POST ${REPO}/pulls/4/reviews/${draft.id}`]: { ...draft, id: 11, state: 'APPROVED' },
      [`DELETE ${REPO}/pulls/4/reviews/${draft.id}`]: noContent(),
    })
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4?tab=files')
    expect(await screen.findByText('Your pending review is saved on this node: only you see it until you submit it.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Review changes' }))
    fireEvent.click(screen.getByRole('radio', { name: 'Approve' }))
    fireEvent.change(screen.getByLabelText('Summary'), { target: { value: 'Good' } })
    fireEvent.click(screen.getByRole('button', { name: 'Submit review' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/reviews/${draft.id}`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/pulls/4/reviews/${draft.id}`)[0].body).toEqual({ event: 'APPROVED', body: 'Good' })
    expect(api.sent('POST', `${REPO}/pulls/4/reviews`)).toHaveLength(0)
    // A submitted review closes the popover and hands focus back to its button.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Finish your review' })).toBeNull())
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Review changes' }))
    fireEvent.click(screen.getByRole('button', { name: 'Review changes' }))
    fireEvent.click(screen.getByRole('button', { name: 'Discard pending review' }))
    await waitFor(() => expect(api.sent('DELETE', `${REPO}/pulls/4/reviews/${draft.id}`)).toHaveLength(1))
  })

  it('switches the diff between unified and split layouts', async () => {
    prApi()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4?tab=files')
    expect(await screen.findByText(codeCell('const speed = 2'))).toBeTruthy()
    expect(document.querySelector('.diff-unified')).not.toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Split' }))
    expect(document.querySelector('.diff-split')).not.toBeNull()
    const row = screen.getByText(codeCell('const speed = 2')).closest('tr') as HTMLElement
    expect(within(row).getByText(codeCell('const speed = 1'))).toBeTruthy()
    expect(screen.getByText('Sign in with your wallet to review.')).toBeTruthy()
  })

  it('lists the pull request\'s commits', async () => {
    prApi(pull(), {
      [`GET ${REPO}/pulls/4/commits`]: [
        commitFixture('d'.repeat(40), 'Speed up', { name: 'Bob', email: 'b@x', date: '2026-01-01T00:00:00Z' }),
      ],
    })
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    fireEvent.click(await screen.findByRole('tab', { name: 'Commits' }))
    expect((await screen.findByRole('link', { name: 'Speed up' })).getAttribute('href')).toBe(`/ada/engine/commit/${'d'.repeat(40)}`)
  })

  describe('editing', () => {
    const writer = repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) })

    /** The API with a pull request that PATCH .../pulls/4 changes as edit says, so a refetch sees the edit. */
    function editableApi(start: PullRequest, repo = writer, edit: (current: PullRequest, patch: Record<string, unknown>) => PullRequest | Response = (c, p) => ({ ...c, ...p })) {
      let current = start
      return prApi(start, {
        [`GET ${REPO}/pulls/4`]: () => current,
        [`PATCH ${REPO}/pulls/4`]: (patch: unknown) => {
          const next = edit(current, patch as Record<string, unknown>)
          if (!(next instanceof Response)) current = next
          return next
        },
      }, repo)
    }

    it('lets a writer retitle a pull request through its own endpoint', async () => {
      const api = editableApi(pull())
      signIn()
      renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
      fireEvent.click(await screen.findByRole('button', { name: 'Edit title' }))
      const input = screen.getByRole('textbox', { name: 'Title' })
      expect(document.activeElement).toBe(input)
      fireEvent.change(input, { target: { value: 'Much faster mill' } })
      fireEvent.click(screen.getByRole('button', { name: 'Save title' }))
      expect(await screen.findByRole('heading', { level: 1, name: 'Much faster mill #4' })).toBeTruthy()
      expect(api.sent('PATCH', `${REPO}/pulls/4`).map((c) => c.body)).toEqual([{ title: 'Much faster mill' }])
      expect(api.sent('PATCH', `${REPO}/issues/4`)).toHaveLength(0)
    })

    it('lets the author edit the description', async () => {
      const rendered = (c: PullRequest, p: Record<string, unknown>) => ({ ...c, body: String(p.body), body_html: '<p>Turns <strong>three</strong> times as fast.</p>' })
      const api = editableApi(pull({ user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }) }), repoFixture(), rendered)
      signIn()
      renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
      fireEvent.click(await screen.findByRole('button', { name: 'Edit description' }))
      const box = screen.getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement
      expect(box.value).toBe('Turns twice as fast.')
      fireEvent.change(box, { target: { value: 'Turns **three** times as fast.' } })
      fireEvent.click(screen.getByRole('button', { name: 'Save description' }))
      expect((await screen.findByText('three')).tagName).toBe('STRONG')
      expect(api.sent('PATCH', `${REPO}/pulls/4`)[0].body).toEqual({ body: 'Turns **three** times as fast.' })
      expect(screen.queryByRole('button', { name: 'Edit assignees' })).toBeNull()
    })

    it('lets a writer set the assignees and shows a refusal', async () => {
      const assign = (c: PullRequest, p: Record<string, unknown>) => {
        const logins = p.assignees as string[]
        if (logins.includes('zed')) return new Response(JSON.stringify({ message: 'there is no user zed to assign', code: 'invalid_field', field: 'assignees' }), { status: 422 })
        return { ...c, assignees: logins.map((login, i) => schemaFixture('ForgeUser', { id: 10 + i, login })) }
      }
      const api = editableApi(pull(), writer, assign)
      signIn()
      renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
      const side = await screen.findByRole('region', { name: 'Assignees' })
      expect(within(side).getByText('No one assigned')).toBeTruthy()
      fireEvent.click(within(side).getByRole('button', { name: 'Edit assignees' }))
      fireEvent.change(within(side).getByRole('textbox', { name: 'Usernames' }), { target: { value: 'bob zed' } })
      fireEvent.click(within(side).getByRole('button', { name: 'Save assignees' }))
      expect((await within(side).findByText('there is no user zed to assign')).getAttribute('role')).toBe('alert')
      fireEvent.change(within(side).getByRole('textbox', { name: 'Usernames' }), { target: { value: 'bob' } })
      fireEvent.click(within(side).getByRole('button', { name: 'Save assignees' }))
      expect((await within(side).findByRole('link', { name: 'bob' })).getAttribute('href')).toBe('/user/bob')
      expect(api.sent('PATCH', `${REPO}/pulls/4`).map((c) => c.body)).toEqual([{ assignees: ['bob', 'zed'] }, { assignees: ['bob'] }])
    })

    it('hides the editors from a reader who is not the author', async () => {
      editableApi(pull({ assignees: [schemaFixture('ForgeUser', { id: 3, login: 'cy' })] }), repoFixture())
      signIn()
      renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
      const side = await screen.findByRole('region', { name: 'Assignees' })
      expect(within(side).getByRole('link', { name: 'cy' })).toBeTruthy()
      expect(screen.queryByRole('button', { name: 'Edit title' })).toBeNull()
      expect(screen.queryByRole('button', { name: 'Edit description' })).toBeNull()
      expect(screen.queryByRole('button', { name: 'Edit assignees' })).toBeNull()
    })
  })

  it('answers the spec\'s /pr/:id with the pull request and its canonical URL', async () => {
    prApi(pull(), { 'GET /api/v1/issues/201': { id: 201, number: 4, title: 'Faster mill', body: '', user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), labels: [], state: 'open', comments: 0, created_at: '', updated_at: '', pull_request: { merged: false }, repository: { id: 7, name: 'engine', owner: 'ada', full_name: 'ada/engine' } } })
    renderScreen(<PullRequestScreen />, '/pr/201')
    expect(await screen.findByRole('heading', { level: 1, name: 'Faster mill #4' })).toBeTruthy()
    await waitFor(() => expect(window.location.pathname).toBe('/ada/engine/pulls/4'))
  })

  it('says the pull request is not found and names its number', async () => {
    stubApi({})
    renderScreen(<PullRequestScreen />, '/pr/7')
    expect(await screen.findByRole('heading', { level: 1, name: 'Pull request not found' })).toBeTruthy()
    expect(screen.getByText(/There is no pull request #7 on this node/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Search dForge' }).getAttribute('href')).toBe('/search')
  })
})
