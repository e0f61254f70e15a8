import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import { preloadNamespaces, renderScreen } from '@/test/render'
import type { Issue } from './api'
import IssueListScreen from './IssueListScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('issues', 'tracker', 'repositories', 'wallet')

// The list's filters live in the URL's query string and drive the issue
// route's request: read at load, written on each choice, cleared at once.

const BUG = schemaFixture('Label', { id: 5, name: 'bug', color: 'ee0701' })
const UI = { id: 6, name: 'ui', color: '0000ee' }
const V1 = { id: 9, title: 'v1', state: 'open', open_issues: 1, closed_issues: 0 }

function issue(overrides: Partial<Issue> = {}): Issue {
  return {
    ...schemaFixture('Issue', {
      id: 101,
      number: 3,
      title: 'The mill jams',
      body: '',
      user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
      labels: [BUG],
      comments: 1,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      pull_request: null,
    }),
    state: 'open',
    state_reason: '',
    ...overrides,
  }
}

function listApi(items: Issue[] = [issue()]) {
  return stubApi({
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${REPO}/issues`]: items,
    [`GET ${REPO}/labels`]: [BUG, UI],
    [`GET ${REPO}/milestones`]: [V1],
    [`GET ${REPO}/assignees`]: [
      schemaFixture('ForgeUser', { id: 1, login: 'ada' }),
      schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
    ],
    [`GET ${REPO}/issues/pinned`]: [],
  })
}

const lastSent = (api: ReturnType<typeof stubApi>) => new URL(api.sent('GET', `${REPO}/issues`).at(-1)?.url ?? '', 'http://x').searchParams
const urlParams = () => new URLSearchParams(window.location.search)

describe('issue list filters', () => {
  it('reads every filter from the URL into the controls and the request, and clears them', async () => {
    const api = listApi([])
    renderScreen(<IssueListScreen />, '/ada/engine/issues?state=closed&author=bob&assignee=ada&milestone=v1&labels=bug,ui&sort=oldest&page=2')
    expect(await screen.findByText('No issues match these filters.', {}, { timeout: 5000 })).toBeTruthy()
    const sent = lastSent(api)
    expect(Object.fromEntries(sent)).toEqual({
      state: 'closed',
      type: 'issues',
      created_by: 'bob',
      assigned_by: 'ada',
      milestones: 'v1',
      labels: 'bug,ui',
      sort: 'oldest',
      page: '2',
      limit: '25',
    })
    expect((screen.getByLabelText('Author') as HTMLInputElement).value).toBe('bob')
    expect((screen.getByLabelText('Assignee') as HTMLInputElement).value).toBe('ada')
    await waitFor(() => expect((screen.getByLabelText('Milestone') as HTMLSelectElement).value).toBe('v1'))
    expect((screen.getByLabelText('Sort') as HTMLSelectElement).value).toBe('oldest')
    expect(screen.getByText('2 labels')).toBeTruthy()
    expect((await screen.findByRole('checkbox', { name: 'ui' })) as HTMLInputElement).toHaveProperty('checked', true)

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(urlParams().toString()).toBe('state=closed')
    await waitFor(() => expect(Object.fromEntries(lastSent(api))).toEqual({ state: 'closed', type: 'issues', page: '1', limit: '25' }))
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull()
    expect((screen.getByLabelText('Author') as HTMLInputElement).value).toBe('')
    expect(await screen.findByText('No issues found')).toBeTruthy()
  })

  it('writes each choice to the URL and the request, back to page 1, and the state tabs keep them', async () => {
    const api = listApi()
    renderScreen(<IssueListScreen />, '/ada/engine/issues?page=3')
    await screen.findByRole('link', { name: 'The mill jams' }, { timeout: 5000 })
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull()

    fireEvent.change(screen.getByLabelText('Sort'), { target: { value: 'mostcomment' } })
    expect(urlParams().get('sort')).toBe('mostcomment')
    expect(urlParams().get('page')).toBeNull()

    // A typed name applies on Enter, not on each key.
    const author = screen.getByLabelText('Author') as HTMLInputElement
    author.focus()
    fireEvent.change(author, { target: { value: 'bo' } })
    expect(urlParams().get('author')).toBeNull()
    fireEvent.change(author, { target: { value: 'carol' } })
    fireEvent.keyDown(author, { key: 'Enter' })
    expect(urlParams().get('author')).toBe('carol')
    expect(document.activeElement).toBe(author)
    // A suggested name applies when picked.
    await waitFor(() => expect(document.querySelectorAll('datalist option')).toHaveLength(2))
    fireEvent.change(screen.getByLabelText('Assignee'), { target: { value: 'ada' } })
    expect(urlParams().get('assignee')).toBe('ada')

    await waitFor(() => expect(screen.getByRole('option', { name: 'v1' })).toBeTruthy())
    fireEvent.change(screen.getByLabelText('Milestone'), { target: { value: 'v1' } })
    fireEvent.click(screen.getByText('Labels', { selector: 'summary' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'ui' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'bug' }))
    expect(urlParams().get('labels')).toBe('ui,bug')
    const menu = screen.getByText('2 labels', { selector: 'summary' }).closest('details') as HTMLDetailsElement
    expect(menu.open).toBe(true)
    fireEvent.keyDown(screen.getByRole('checkbox', { name: 'bug' }), { key: 'Escape' })
    expect(menu.open).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Closed' }))

    await waitFor(() =>
      expect(Object.fromEntries(lastSent(api))).toEqual({
        state: 'closed',
        type: 'issues',
        created_by: 'carol',
        assigned_by: 'ada',
        milestones: 'v1',
        labels: 'ui,bug',
        sort: 'mostcomment',
        page: '1',
        limit: '25',
      }),
    )
    expect(Object.fromEntries(urlParams())).toEqual({ sort: 'mostcomment', author: 'carol', assignee: 'ada', milestone: 'v1', labels: 'ui,bug', state: 'closed' })
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeTruthy()

    // Unticking a label takes it out again.
    fireEvent.click(screen.getByRole('checkbox', { name: 'ui' }))
    expect(urlParams().get('labels')).toBe('bug')
  })

  it('ignores an unknown sort in the URL rather than sending it', async () => {
    const api = listApi()
    renderScreen(<IssueListScreen />, '/ada/engine/issues?sort=best')
    await screen.findByRole('link', { name: 'The mill jams' }, { timeout: 5000 })
    expect(lastSent(api).get('sort')).toBeNull()
    expect((screen.getByLabelText('Sort') as HTMLSelectElement).value).toBe('newest')
  })
})
