import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { REPO, repoFixture, stubApi, text } from '@/test/forge'
import { json } from '@/test/render'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import type { Issue } from './api'
import { NoDescription, NoIssues } from '@/components/EmptyStates'
import IssueListScreen from './IssueListScreen'
import IssueScreen from './IssueScreen'
import NewIssueScreen from './NewIssueScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('issues', 'repositories', 'wallet')

let go: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => {
  go.mockRestore()
})

const BUG = schemaFixture('Label', { id: 5, name: 'bug', color: 'ee0701', description: 'Something is wrong' })

function issue(overrides: Partial<Issue> = {}): Issue {
  return {
    ...schemaFixture('Issue', {
      id: 101,
      number: 3,
      title: 'The mill jams',
      body: 'It stops at step 4.',
      body_html: '<p>It stops at step 4.</p>',
      user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
      labels: [BUG],
      comments: 1,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      pull_request: null,
      repository: { id: 7, name: 'engine', owner: 'ada', full_name: 'ada/engine' },
    }),
    state: 'open',
    state_reason: '',
    ...overrides,
  }
}

describe('issue empty states', () => {
  it('reads "No description provided" for a missing description', async () => {
    renderScreen(<NoDescription />, '/')
    expect(await screen.findByText('No description provided')).toBeTruthy()
  })

  it('reads "No issues found" for an empty issue list', async () => {
    renderScreen(<NoIssues />, '/')
    expect((await screen.findByRole('status')).textContent).toBe('No issues found')
  })
})

describe('IssueListScreen', () => {
  it('shows "No issues found" when there are none', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/issues`]: [], [`GET ${REPO}/labels`]: [] })
    renderScreen(<IssueListScreen />, '/ada/engine/issues')
    expect((await screen.findByText('No issues found')).closest('[role=status]')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'New issue' }).getAttribute('href')).toBe('/ada/engine/issues/new')
  })

  it('lists issues with their labels and filters by state, label and text', async () => {
    const api = stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/issues`]: [issue()], [`GET ${REPO}/labels`]: [BUG] })
    renderScreen(<IssueListScreen />, '/ada/engine/issues')
    expect((await screen.findByRole('link', { name: 'The mill jams' })).getAttribute('href')).toBe('/ada/engine/issues/3')
    expect(screen.getAllByText('bug').length).toBeGreaterThan(0)
    const first = new URL(api.sent('GET', `${REPO}/issues`)[0].url, 'http://x').searchParams
    expect([first.get('state'), first.get('type'), first.get('page')]).toEqual(['open', 'issues', '1'])
    fireEvent.click(screen.getByRole('button', { name: 'Closed' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'bug' }))
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search issues' }), { target: { value: 'mill' } })
    await waitFor(() => {
      const last = new URL(api.sent('GET', `${REPO}/issues`).at(-1)?.url ?? '', 'http://x').searchParams
      expect([last.get('state'), last.get('labels'), last.get('q')]).toEqual(['closed', 'bug', 'mill'])
    })
    expect(new URLSearchParams(window.location.search).get('state')).toBe('closed')
  })

  it('draws the bubble of the comment count as SVG, not as an emoji that renders as a box without an emoji font', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/issues`]: [issue({ comments: 4 })], [`GET ${REPO}/labels`]: [] })
    renderScreen(<IssueListScreen />, '/ada/engine/issues')
    const count = await screen.findByLabelText('4 comments')
    expect(count.querySelector('svg')).not.toBeNull()
    expect(count.textContent?.trim()).toBe('4')
    expect(/\p{Extended_Pictographic}/u.test(count.textContent ?? '')).toBe(false)
  })
})

describe('NewIssueScreen', () => {
  it('asks a visitor to sign in', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture() })
    renderScreen(<NewIssueScreen />, '/ada/engine/issues/new')
    expect(await screen.findByText('Sign in with your wallet to open an issue.')).toBeTruthy()
  })

  it('previews the Markdown on the server, then creates the issue and opens it', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/labels`]: [],
      'POST /api/v1/markdown': text('<p><strong>bold</strong></p>', 200, 'text/html'),
      [`POST ${REPO}/issues`]: issue({ number: 9 }),
    })
    signIn()
    renderScreen(<NewIssueScreen />, '/ada/engine/issues/new')
    fireEvent.click(await screen.findByRole('button', { name: 'Create issue' }))
    expect(await screen.findByText('Enter a title.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Gears grind' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: '**bold**' } })
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }))
    expect((await screen.findByText('bold')).tagName).toBe('STRONG')
    expect(api.sent('POST', '/api/v1/markdown')[0].body).toEqual({ text: '**bold**', mode: 'gfm' })
    fireEvent.click(screen.getByRole('button', { name: 'Create issue' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/issues/9'))
    expect(api.sent('POST', `${REPO}/issues`)[0].body).toEqual({ title: 'Gears grind', body: '**bold**' })
  })
})

describe('IssueScreen', () => {
  const comment = { id: 1, user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: 'Looking', body_html: '<p>Looking <em>into it</em></p>', created_at: '2026-01-02T00:00:00Z' }

  function issueApi(i: Issue = issue(), extra: Record<string, unknown> = {}) {
    return stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/issues/3`]: i,
      [`GET ${REPO}/issues/3/comments`]: [comment],
      [`GET ${REPO}/issues/3/timeline`]: [{ ...comment, type: 'comment', updated_at: comment.created_at }],
      [`GET ${REPO}/labels`]: [BUG, { id: 6, name: 'idea', color: '00ff00' }],
      ...extra,
    })
  }

  it('shows the title, state, body, labels and comments', async () => {
    issueApi()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    expect(await screen.findByRole('heading', { level: 1, name: 'The mill jams #3' })).toBeTruthy()
    expect(screen.getByText('Open')).toBeTruthy()
    expect(screen.getByText('It stops at step 4.')).toBeTruthy()
    expect((await screen.findByText('into it')).tagName).toBe('EM')
    expect(within(screen.getByRole('region', { name: 'Labels' })).getByText('bug')).toBeTruthy()
    expect(screen.getByText('Sign in with your wallet to comment.')).toBeTruthy()
  })

  it('reads "No description provided" for an empty body', async () => {
    issueApi(issue({ body: '', body_html: '' }))
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    expect(await screen.findByText('No description provided')).toBeTruthy()
  })

  it('comments, then closes as not planned with the typed comment posted first', async () => {
    const api = issueApi(issue({ user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }) }), {
      [`POST ${REPO}/issues/3/comments`]: comment,
      [`PATCH ${REPO}/issues/3`]: issue({ state: 'closed', state_reason: 'not_planned' }),
    })
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    const box = await screen.findByRole('textbox', { name: 'Add a comment' })
    fireEvent.change(box, { target: { value: 'Thanks!' } })
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/issues/3/comments`)[0]?.body).toEqual({ body: 'Thanks!' }))
    fireEvent.change(await screen.findByRole('textbox', { name: 'Add a comment' }), { target: { value: 'Won\'t fix' } })
    fireEvent.click(screen.getByRole('button', { name: 'Close as not planned' }))
    await waitFor(() => expect(api.sent('PATCH', `${REPO}/issues/3`)[0]?.body).toEqual({ state: 'closed', state_reason: 'not_planned' }))
    expect(api.sent('POST', `${REPO}/issues/3/comments`)[1]?.body).toEqual({ body: "Won't fix" })
  })

  it('offers reopen on a closed issue and no close buttons to others', async () => {
    const api = issueApi(issue({ state: 'closed', state_reason: 'completed', user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }) }), { [`PATCH ${REPO}/issues/3`]: issue() })
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    expect(await screen.findByText('Closed')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Close as completed' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Reopen' }))
    await waitFor(() => expect(api.sent('PATCH', `${REPO}/issues/3`)[0]?.body).toEqual({ state: 'open' }))
  })

  it('hides closing from someone who is neither the author nor a maintainer', async () => {
    issueApi()
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    expect(await screen.findByRole('button', { name: 'Comment' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Close as completed' })).toBeNull()
  })

  it('lets a writer change the labels', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) }),
      [`GET ${REPO}/issues/3`]: issue(),
      [`GET ${REPO}/issues/3/comments`]: [],
      [`GET ${REPO}/issues/3/timeline`]: [],
      [`GET ${REPO}/labels`]: [BUG, { id: 6, name: 'idea', color: '00ff00' }],
      [`PUT ${REPO}/issues/3/labels`]: [BUG],
    })
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    fireEvent.click(await screen.findByRole('button', { name: 'Edit labels' }))
    fireEvent.click(await screen.findByRole('checkbox', { name: 'idea' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save labels' }))
    await waitFor(() => expect(api.sent('PUT', `${REPO}/issues/3/labels`)[0]?.body).toEqual({ labels: [5, 6] }))
  })

  describe('editing', () => {
    const writer = repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) })

    /** The API with an issue that PATCH changes as edit says, so a refetch sees the edit. */
    function editableApi(start: Issue, repo = writer, edit: (current: Issue, patch: Record<string, unknown>) => Issue | Response = (c, p) => ({ ...c, ...p })) {
      let current = start
      return stubApi({
        [`GET ${REPO}`]: repo,
        [`GET ${REPO}/issues/3`]: () => current,
        [`GET ${REPO}/issues/3/comments`]: [],
        [`GET ${REPO}/issues/3/timeline`]: [],
        [`GET ${REPO}/labels`]: [],
        [`PATCH ${REPO}/issues/3`]: (patch: unknown) => {
          const next = edit(current, patch as Record<string, unknown>)
          if (!(next instanceof Response)) current = next
          return next
        },
      })
    }

    it('lets a writer retitle an issue, refusing an empty title', async () => {
      const api = editableApi(issue())
      signIn()
      renderScreen(<IssueScreen />, '/ada/engine/issues/3')
      fireEvent.click(await screen.findByRole('button', { name: 'Edit title' }))
      const input = screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement
      expect(document.activeElement).toBe(input)
      expect(input.value).toBe('The mill jams')
      fireEvent.change(input, { target: { value: '  ' } })
      fireEvent.keyDown(input, { key: 'Enter' })
      expect(await screen.findByText('Enter a title.')).toBeTruthy()
      expect(api.sent('PATCH', `${REPO}/issues/3`)).toHaveLength(0)
      fireEvent.change(input, { target: { value: 'The mill jams at step 4 ' } })
      fireEvent.keyDown(input, { key: 'Enter' })
      expect(await screen.findByRole('heading', { level: 1, name: 'The mill jams at step 4 #3' })).toBeTruthy()
      expect(api.sent('PATCH', `${REPO}/issues/3`).map((c) => c.body)).toEqual([{ title: 'The mill jams at step 4' }])
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit title' })))
    })

    it('cancels a title edit with Escape and puts the focus back on Edit', async () => {
      const api = editableApi(issue())
      signIn()
      renderScreen(<IssueScreen />, '/ada/engine/issues/3')
      fireEvent.click(await screen.findByRole('button', { name: 'Edit title' }))
      const input = screen.getByRole('textbox', { name: 'Title' })
      fireEvent.change(input, { target: { value: 'Something else' } })
      fireEvent.keyDown(input, { key: 'Escape' })
      expect(screen.getByRole('heading', { level: 1, name: 'The mill jams #3' })).toBeTruthy()
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit title' })))
      expect(api.sent('PATCH', `${REPO}/issues/3`)).toHaveLength(0)
    })

    it('lets the author edit the description and shows the body the server rendered', async () => {
      const rendered = (c: Issue, p: Record<string, unknown>) => ({ ...c, body: String(p.body), body_html: p.body ? '<p>It stops at <em>step 5</em>.</p>' : '' })
      const api = editableApi(issue({ user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }) }), repoFixture(), rendered)
      signIn()
      renderScreen(<IssueScreen />, '/ada/engine/issues/3')
      fireEvent.click(await screen.findByRole('button', { name: 'Edit description' }))
      const box = screen.getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement
      expect(document.activeElement).toBe(box)
      expect(box.value).toBe('It stops at step 4.')
      fireEvent.change(box, { target: { value: 'It stops at *step 5*.' } })
      fireEvent.click(screen.getByRole('button', { name: 'Save description' }))
      expect((await screen.findByText('step 5')).tagName).toBe('EM')
      expect(api.sent('PATCH', `${REPO}/issues/3`)[0].body).toEqual({ body: 'It stops at *step 5*.' })
      // The author without push may edit the text but not the assignees.
      expect(screen.queryByRole('button', { name: 'Edit assignees' })).toBeNull()
      fireEvent.click(screen.getByRole('button', { name: 'Edit description' }))
      fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: '' } })
      fireEvent.click(screen.getByRole('button', { name: 'Save description' }))
      expect(await screen.findByText('No description provided')).toBeTruthy()
      expect(api.sent('PATCH', `${REPO}/issues/3`)[1].body).toEqual({ body: '' })
    })

    it('lets a writer set the assignees by username', async () => {
      const assign = (c: Issue, p: Record<string, unknown>) => ({ ...c, assignees: (p.assignees as string[]).map((login, i) => schemaFixture('ForgeUser', { id: 10 + i, login })) })
      const api = editableApi(issue(), writer, assign)
      signIn()
      renderScreen(<IssueScreen />, '/ada/engine/issues/3')
      const side = await screen.findByRole('region', { name: 'Assignees' })
      expect(within(side).getByText('No one assigned')).toBeTruthy()
      fireEvent.click(within(side).getByRole('button', { name: 'Edit assignees' }))
      const input = within(side).getByRole('textbox', { name: 'Usernames' })
      expect(document.activeElement).toBe(input)
      fireEvent.change(input, { target: { value: 'ada, @cy  cy' } })
      fireEvent.keyDown(input, { key: 'Enter' })
      expect((await within(side).findByRole('link', { name: 'cy' })).getAttribute('href')).toBe('/user/cy')
      expect(within(side).getByRole('link', { name: 'ada' })).toBeTruthy()
      expect(api.sent('PATCH', `${REPO}/issues/3`)[0].body).toEqual({ assignees: ['ada', 'cy'] })
      fireEvent.click(within(side).getByRole('button', { name: 'Edit assignees' }))
      expect((within(side).getByRole('textbox', { name: 'Usernames' }) as HTMLInputElement).value).toBe('ada, cy')
    })

    it('shows the server\'s refusal of an unknown assignee', async () => {
      editableApi(issue(), writer, () => new Response(JSON.stringify({ message: 'there is no user zed to assign', code: 'invalid_field', field: 'assignees' }), { status: 422 }))
      signIn()
      renderScreen(<IssueScreen />, '/ada/engine/issues/3')
      fireEvent.click(await screen.findByRole('button', { name: 'Edit assignees' }))
      fireEvent.change(screen.getByRole('textbox', { name: 'Usernames' }), { target: { value: 'zed' } })
      fireEvent.click(screen.getByRole('button', { name: 'Save assignees' }))
      expect((await screen.findByText('there is no user zed to assign')).getAttribute('role')).toBe('alert')
      expect(screen.getByRole('textbox', { name: 'Usernames' })).toBeTruthy()
    })

    it('hides the editors from a reader who is not the author', async () => {
      editableApi(issue({ assignees: [schemaFixture('ForgeUser', { id: 3, login: 'cy' })] }), repoFixture())
      signIn()
      renderScreen(<IssueScreen />, '/ada/engine/issues/3')
      const side = await screen.findByRole('region', { name: 'Assignees' })
      expect(within(side).getByRole('link', { name: 'cy' })).toBeTruthy()
      expect(screen.queryByRole('button', { name: 'Edit title' })).toBeNull()
      expect(screen.queryByRole('button', { name: 'Edit description' })).toBeNull()
      expect(screen.queryByRole('button', { name: 'Edit assignees' })).toBeNull()
    })
  })

  it('answers the spec\'s /issue/:id with the issue and its canonical URL', async () => {
    issueApi(issue(), { 'GET /api/v1/issues/101': issue() })
    renderScreen(<IssueScreen />, '/issue/101')
    expect(await screen.findByRole('heading', { level: 1, name: 'The mill jams #3' })).toBeTruthy()
    await waitFor(() => expect(window.location.pathname).toBe('/ada/engine/issues/3'))
  })

  it('sends a pull request\'s global id to its pull request page', async () => {
    stubApi({ 'GET /api/v1/issues/102': issue({ id: 102, number: 4, pull_request: schemaFixture('PullMeta', { merged: false }) }) })
    renderScreen(<IssueScreen />, '/issue/102')
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine/pulls/4'))
  })

  it('says which issue is not found', async () => {
    const api = stubApi({})
    renderScreen(<IssueScreen />, '/issue/42')
    expect(await screen.findByRole('heading', { level: 1, name: 'Issue #42 not found' })).toBeTruthy()
    expect(document.title).toBe('Issue #42 not found · dForge')
    expect(screen.getByRole('link', { name: 'Explore repositories' }).getAttribute('href')).toBe('/explore')
    expect(api.sent('GET', '/api/v1/issues/42')).toHaveLength(1)
  })
})

describe('task lists', () => {
  // The source has a task inside fenced code; the server renders only the two real ones.
  const BODY = '- [ ] oil\n```\n- [ ] not a task\n```\n- [ ] grease'
  const box = (checked: boolean) => `<input ${checked ? 'checked="" ' : ''}disabled="" type="checkbox">`
  const html = (oil: boolean, grease: boolean) => `<ul><li>${box(oil)} oil</li></ul><pre><code>- [ ] not a task\n</code></pre><ul><li>${box(grease)} grease</li></ul>`
  const tasks = (body: string) => body.split('\n').filter((l) => /^- \[[ x]\] (oil|grease)$/.test(l))
  const mine = { id: 9, user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: '- [ ] mine', body_html: `<ul><li>${box(false)} mine</li></ul>`, created_at: '2026-01-02T00:00:00Z', updated_at: '2026-01-02T00:00:00Z' }
  const theirs = { ...mine, id: 10, user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), body: '- [ ] theirs', body_html: `<ul><li>${box(false)} theirs</li></ul>` }

  function taskApi(author: string, repo = repoFixture(), patch: (p: Record<string, unknown>) => unknown = (p) => issue({ user: schemaFixture('ForgeUser', { id: 1, login: author }), body: String(p.body), body_html: html(false, String(p.body).endsWith('[x] grease')) })) {
    return stubApi({
      [`GET ${REPO}`]: repo,
      [`GET ${REPO}/issues/3`]: issue({ user: schemaFixture('ForgeUser', { id: 1, login: author }), body: BODY, body_html: html(false, false) }),
      [`GET ${REPO}/issues/3/comments`]: [],
      [`GET ${REPO}/issues/3/timeline`]: [
        { ...mine, type: 'comment' },
        { ...theirs, type: 'comment' },
      ],
      [`GET ${REPO}/labels`]: [],
      [`PATCH ${REPO}/issues/3`]: (p: unknown) => patch(p as Record<string, unknown>),
      [`PATCH ${REPO}/issues/comments/9`]: (p: unknown) => ({ ...mine, body: (p as { body: string }).body }),
    })
  }

  it('lets the author tick a task of the body, saving the body with that marker changed', async () => {
    const api = taskApi('ada')
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    const grease = (await screen.findByRole('checkbox', { name: 'grease' })) as HTMLInputElement
    await waitFor(() => expect(grease.disabled).toBe(false))
    fireEvent.click(grease)
    expect(grease.checked).toBe(true)
    await waitFor(() => expect(api.sent('PATCH', `${REPO}/issues/3`)).toHaveLength(1))
    const sent = api.sent('PATCH', `${REPO}/issues/3`)[0].body as { body: string }
    expect(Object.keys(sent)).toEqual(['body'])
    expect(sent.body).toBe('- [ ] oil\n```\n- [ ] not a task\n```\n- [x] grease')
    expect(tasks(sent.body)).toEqual(['- [ ] oil', '- [x] grease'])
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'grease' }) as HTMLInputElement).checked).toBe(true))
    expect(screen.queryByText(/The checkbox was not saved/)).toBeNull()
  })

  it('undoes the tick and says why when the save fails', async () => {
    const api = taskApi('ada', repoFixture(), () => json({ message: 'the chain refused the edit', code: 'denied' }, 403))
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    const oil = (await screen.findByRole('checkbox', { name: 'oil' })) as HTMLInputElement
    await waitFor(() => expect(oil.disabled).toBe(false))
    fireEvent.click(oil)
    expect(oil.checked).toBe(true)
    expect((await screen.findByText('The checkbox was not saved: the chain refused the edit')).getAttribute('role')).toBe('alert')
    await waitFor(() => expect(oil.checked).toBe(false))
    expect(oil.disabled).toBe(false)
    expect(api.sent('PATCH', `${REPO}/issues/3`)[0].body).toEqual({ body: '- [x] oil\n```\n- [ ] not a task\n```\n- [ ] grease' })
  })

  it('keeps the tasks disabled for someone who may not edit, and lets a comment\'s author tick its own', async () => {
    const api = taskApi('bob')
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    const own = (await screen.findByRole('checkbox', { name: 'mine' })) as HTMLInputElement
    await waitFor(() => expect(own.disabled).toBe(false))
    for (const name of ['oil', 'grease', 'theirs']) {
      const other = screen.getByRole('checkbox', { name }) as HTMLInputElement
      expect(other.disabled).toBe(true)
      fireEvent.click(other)
    }
    fireEvent.click(own)
    await waitFor(() => expect(api.sent('PATCH', `${REPO}/issues/comments/9`)[0]?.body).toEqual({ body: '- [x] mine' }))
    expect(api.sent('PATCH', `${REPO}/issues/3`)).toHaveLength(0)
    expect(api.sent('PATCH', `${REPO}/issues/comments/10`)).toHaveLength(0)
  })

  it('lets a maintainer tick anyone\'s tasks, and a visitor none', async () => {
    taskApi('bob', repoFixture({ permissions: { admin: false, maintain: true, push: true, pull: true } }))
    signIn()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    const theirsBox = (await screen.findByRole('checkbox', { name: 'theirs' })) as HTMLInputElement
    await waitFor(() => expect(theirsBox.disabled).toBe(false))
    expect((screen.getByRole('checkbox', { name: 'oil' }) as HTMLInputElement).disabled).toBe(false)
  })

  it('shows a visitor the tasks disabled', async () => {
    taskApi('bob')
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    await screen.findByRole('checkbox', { name: 'theirs' })
    for (const b of screen.getAllByRole('checkbox') as HTMLInputElement[]) expect(b.disabled).toBe(true)
  })
})
