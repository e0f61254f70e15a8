import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { noContent, REPO, repoFixture, stubApi } from '@/test/forge'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import type { Issue } from './api'
import IssueListScreen from './IssueListScreen'
import IssueScreen from './IssueScreen'
import MilestoneListScreen from './MilestoneListScreen'
import MilestoneScreen from './MilestoneScreen'
import { progress, tally } from './tracker'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('issues', 'repositories', 'wallet', 'tracker')

let go: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => {
  go.mockRestore()
})

const V1 = schemaFixture('Milestone', { id: 4, title: 'v1.0', description: 'The first cut', state: 'open', open_issues: 1, closed_issues: 3, created_at: '2026-01-01T00:00:00Z', due_on: '2099-03-01T00:00:00Z' })

function issue(overrides: Partial<Issue> = {}): Issue {
  return {
    ...schemaFixture('Issue', {
      id: 101,
      number: 3,
      title: 'The mill jams',
      body: 'It stops at step 4.',
      body_html: '<p>It stops at step 4.</p>',
      user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
      labels: [],
      comments: 1,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      pull_request: null,
      milestone: V1,
      repository: { id: 7, name: 'engine', owner: 'ada', full_name: 'ada/engine' },
    }),
    state: 'open',
    state_reason: '',
    ...overrides,
  }
}

describe('tracker helpers', () => {
  it('counts progress and reactions', () => {
    expect(progress({ open_issues: 1, closed_issues: 3 })).toBe(75)
    expect(progress({ open_issues: 0, closed_issues: 0 })).toBe(0)
    const r = (login: string, content: string) => ({ user: schemaFixture('ForgeUser', { id: 1, login }), content, created_at: '' })
    expect(tally([r('ada', 'heart'), r('bob', 'heart'), r('bob', '+1')], 'Ada')).toEqual([
      { content: '+1', count: 1, mine: false, users: ['bob'] },
      { content: 'heart', count: 2, mine: true, users: ['ada', 'bob'] },
    ])
  })
})

describe('MilestoneListScreen', () => {
  it('lists milestones with their progress and creates one with its due date', { timeout: 20000 }, async () => {
    signIn()
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) }),
      [`GET ${REPO}/milestones`]: [V1],
      [`POST ${REPO}/milestones`]: { ...V1, id: 5, title: 'v2.0' },
    })
    renderScreen(<MilestoneListScreen />, '/ada/engine/milestones')
    const bar = await screen.findByRole('progressbar', { name: 'Progress of v1.0' }, { timeout: 5000 })
    expect(bar.getAttribute('aria-valuetext')).toBe('75% complete · 1 open · 3 closed')
    expect(screen.getByRole('link', { name: 'v1.0' }).getAttribute('href')).toBe('/ada/engine/milestones/4')
    fireEvent.click(screen.getByRole('button', { name: 'New milestone' }))
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'v2.0' } })
    fireEvent.change(screen.getByLabelText('Due date (optional)'), { target: { value: '2027-05-01' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create milestone' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/milestones`)[0]?.body).toEqual({ title: 'v2.0', description: '', due_on: '2027-05-01T23:59:59Z' }))
  })

  it('shows who signed each milestone and the repository, asking the node registry once, and only when a badge is opened', async () => {
    const node = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const wallet = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture({ signer: node, delegation: node }),
      [`GET ${REPO}/milestones`]: [
        { ...V1, signer: node, delegation: node },
        { ...V1, id: 5, title: 'v2.0', signer: node, delegation: node },
        { ...V1, id: 6, title: 'v3.0', signer: wallet, delegation: '' },
      ],
      'GET /api/v1/nodes': [{ operator: node.toLowerCase(), url: 'https://forge.example.org', peer_id: '', addrs: [], height: 0 }],
    })
    renderScreen(<MilestoneListScreen />, '/ada/engine/milestones')
    await screen.findByRole('progressbar', { name: 'Progress of v3.0' }, { timeout: 5000 })
    const rows = screen.getAllByRole('listitem').filter((li) => li.querySelector('.milestone-row'))
    expect(rows.map((li) => within(li).getByRole('button', { name: /^Signed / }).textContent)).toEqual([
      'Signed via node 0x7099…79C8',
      'Signed via node 0x7099…79C8',
      "Signed by the author's wallet",
    ])
    // The header's badge, the rows' and the page: no registry request yet.
    expect(screen.getAllByRole('button', { name: 'Signed via node 0x7099…79C8' })).toHaveLength(3)
    expect(api.sent('GET', '/api/v1/nodes')).toHaveLength(0)
    fireEvent.mouseEnter(within(rows[0]).getByRole('button', { name: /^Signed / }))
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Signed via node forge.example.org' })).toHaveLength(3))
    fireEvent.mouseEnter(within(rows[1]).getByRole('button', { name: /^Signed / }))
    expect(api.sent('GET', '/api/v1/nodes')).toHaveLength(1)
  })

  it('shows the empty state, and no controls to readers', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/milestones`]: [] })
    renderScreen(<MilestoneListScreen />, '/ada/engine/milestones')
    expect(await screen.findByText('No milestones here.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'New milestone' })).toBeNull()
  })
})

describe('MilestoneScreen', () => {
  it('lists the issues filed under the milestone', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/milestones/4`]: V1,
      [`GET ${REPO}/issues`]: [issue()],
    })
    renderScreen(<MilestoneScreen />, '/ada/engine/milestones/4')
    expect(await screen.findByRole('heading', { level: 1, name: 'v1.0' })).toBeTruthy()
    expect(await screen.findByRole('link', { name: 'The mill jams' })).toBeTruthy()
    const asked = api.sent('GET', `${REPO}/issues`)[0].url
    expect(asked).toContain('milestones=4')
    expect(asked).toContain('state=all')
  })
})

describe('IssueScreen tracker parts', () => {
  const comment = { id: 1, type: 'comment', user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: 'Looking', body_html: '<p>Looking</p>', created_at: '2026-01-02T00:00:00Z', updated_at: '2026-01-02T00:00:00Z' }
  const events = [
    comment,
    { id: 2, type: 'change_title', user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: '', created_at: '2026-01-03T00:00:00Z', updated_at: '', old_title: 'Jam', new_title: 'The mill jams' },
    { id: 3, type: 'label', user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), body: '1', created_at: '2026-01-03T00:00:00Z', updated_at: '', label: { id: 5, name: 'bug', color: 'ee0701' } },
    { id: 4, type: 'issue_ref', user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), body: '', created_at: '2026-01-04T00:00:00Z', updated_at: '', ref_issue: { number: 8, title: 'Gears', html_url: '' } },
  ]

  function api(extra: Record<string, unknown> = {}) {
    return stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) }),
      [`GET ${REPO}/issues/3`]: issue(),
      [`GET ${REPO}/issues/3/timeline`]: events,
      [`GET ${REPO}/issues/3/reactions`]: [{ user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), content: 'heart', created_at: '' }],
      [`GET ${REPO}/issues/comments/1/reactions`]: [],
      [`GET ${REPO}/issues/3/subscriptions/check`]: { subscribed: false },
      [`GET ${REPO}/milestones`]: [V1],
      [`GET ${REPO}/labels`]: [],
      ...extra,
    })
  }

  it('shows the timeline events between comments, and the milestone', async () => {
    api()
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    expect(await screen.findByText(/changed the title from “Jam” to “The mill jams”/, {}, { timeout: 5000 })).toBeTruthy()
    expect(screen.getByText(/added the label/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Gears #8' }).getAttribute('href')).toBe('/ada/engine/issues/8')
    const side = screen.getByRole('region', { name: 'Milestone' })
    expect(within(side).getByRole('link', { name: 'v1.0' })).toBeTruthy()
  })

  it('says who signed each timeline event, and nothing for an event from before signers were kept', async () => {
    const node = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const wallet = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    signIn(wallet)
    const stub = api({
      [`GET ${REPO}/issues/3/timeline`]: [
        events[1],
        { ...events[2], signer: node, delegation: node },
        { ...events[2], id: 5, body: '', signer: wallet.toLowerCase(), delegation: '' },
      ],
    })
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    const renamed = (await screen.findByText(/changed the title from “Jam” to “The mill jams”/, {}, { timeout: 5000 })).closest('p') as HTMLElement
    expect(within(renamed).queryByRole('button', { name: /^Signed / })).toBeNull()
    const added = screen.getByText(/added the label/).closest('p') as HTMLElement
    expect(within(added).getByRole('button', { name: 'Signed via node 0x7099…79C8' })).toBeTruthy()
    const removed = screen.getByText(/removed the label/).closest('p') as HTMLElement
    expect(within(removed).getByRole('button', { name: 'Signed by you' })).toBeTruthy()
    expect(stub.sent('GET', '/api/v1/nodes')).toHaveLength(0)
  })

  it('reacts, subscribes, moves the milestone and edits the own comment', { timeout: 20000 }, async () => {
    signIn()
    const stub = api({
      [`POST ${REPO}/issues/3/reactions`]: { user: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), content: 'heart', created_at: '' },
      [`PUT ${REPO}/issues/3/subscriptions/ada`]: noContent(),
      [`PATCH ${REPO}/issues/3`]: issue({ milestone: null }),
      [`PATCH ${REPO}/issues/comments/1`]: { ...comment, body: 'Fixed' },
    })
    renderScreen(<IssueScreen />, '/ada/engine/issues/3')
    fireEvent.click(await screen.findByRole('button', { name: 'Heart: 1' }, { timeout: 5000 }))
    await waitFor(() => expect(stub.sent('POST', `${REPO}/issues/3/reactions`)[0]?.body).toEqual({ content: 'heart' }))
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
    await waitFor(() => expect(stub.sent('PUT', `${REPO}/issues/3/subscriptions/ada`)).toHaveLength(1))
    fireEvent.change(screen.getByLabelText('Choose a milestone'), { target: { value: '0' } })
    await waitFor(() => expect(stub.sent('PATCH', `${REPO}/issues/3`)[0]?.body).toEqual({ milestone: 0 }))
    const card = screen.getByRole('article', { name: 'ada' })
    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }))
    fireEvent.change(within(card).getByRole('textbox', { name: 'Edit comment' }), { target: { value: 'Fixed' } })
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(stub.sent('PATCH', `${REPO}/issues/comments/1`)[0]?.body).toEqual({ body: 'Fixed' }))
  })
})

describe('IssueListScreen pins', () => {
  it('shows the pinned issues above the list', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/issues`]: [],
      [`GET ${REPO}/issues/pinned`]: [issue({ pin_order: 1 })],
      [`GET ${REPO}/labels`]: [],
    })
    renderScreen(<IssueListScreen />, '/ada/engine/issues')
    const pinned = await screen.findByRole('region', { name: 'Pinned' })
    expect(within(pinned).getByRole('link', { name: 'The mill jams' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Milestones' }).getAttribute('href')).toBe('/ada/engine/milestones')
  })
})
