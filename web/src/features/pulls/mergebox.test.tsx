import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { TimelineEvent } from '@/features/issues'
import { REPO, repoFixture, stubApi, text } from '@/test/forge'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { type PullReview, type ReviewComment, verdictsOf } from './api'
import PullRequestScreen from './PullRequestScreen'
import { PULL_HEAD, pullFixture } from './testing'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('pulls', 'issues', 'tracker', 'repositories', 'wallet', 'branches', 'statuses', 'reviewers')

const HEAD = PULL_HEAD
const OLD = 'c'.repeat(40)
const pr = pullFixture()
let at = 0
const review = (id: number, login: string, state: PullReview['state'], extra: Partial<PullReview> = {}): PullReview => schemaFixture('Review', {
  id,
  user: schemaFixture('ForgeUser', { id: login.length, login }),
  state,
  body: '',
  commit_id: OLD,
  comments_count: 0,
  submitted_at: `2026-01-0${2 + (at++ % 7)}T00:00:00Z`,
  ...extra,
})

function open(reviews: PullReview[], more: Record<string, unknown> = {}) {
  const api = stubApi({
    [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) }),
    [`GET ${REPO}/pulls/4`]: pr,
    [`GET ${REPO}/issues/4/timeline`]: [],
    [`GET ${REPO}/pulls/4/reviews`]: reviews,
    [`GET ${REPO}/pulls/4.diff`]: text(''),
    [`GET ${REPO}/labels`]: [],
    [`GET ${REPO}/branch_protections`]: [],
    ...more,
  })
  signIn()
  renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
  return api
}

const mergeBox = async () => (await screen.findByRole('heading', { name: 'Merge' })).closest('section') as HTMLElement

describe('the merge box tells where the reviews stand', () => {
  it('counts each reviewer by their latest verdict; a dismissal or a later approval clears a request for changes', () => {
    const v = verdictsOf([
      review(1, 'cy', 'REQUEST_CHANGES'),
      review(2, 'dee', 'REQUEST_CHANGES'),
      review(3, 'eve', 'APPROVED'),
      review(4, 'cy', 'COMMENT'),
      review(5, 'dee', 'APPROVED'),
      review(6, 'eve', 'REQUEST_CHANGES', { dismissed: true }),
    ])
    expect(v.changesRequested.map((u) => u.login)).toEqual(['cy'])
    expect(v.approved.map((u) => u.login)).toEqual(['dee'])
  })

  it('warns of changes requested and marks the merge as overriding them', async () => {
    const api = open([review(9, 'cy', 'REQUEST_CHANGES', { body: 'Not yet' }), review(10, 'dee', 'APPROVED')], { [`POST ${REPO}/pulls/4/merge`]: {} })
    const box = await mergeBox()
    expect(await within(box).findByText('Changes requested by cy')).toBeTruthy()
    expect(within(box).getByText('Approved by dee')).toBeTruthy()
    const button = await within(box).findByRole('button', { name: 'Merge without addressing changes requested' })
    expect(button.className).toContain('btn-outline')
    expect(within(box).queryByRole('button', { name: 'Merge pull request' })).toBeNull()
    expect(box.className).toContain('changes-requested')
    // It still merges: the maintainer decides.
    fireEvent.click(button)
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/merge`)).toHaveLength(1))
  })

  it('offers the plain merge once the reviewer approves', async () => {
    open([review(9, 'cy', 'REQUEST_CHANGES'), review(11, 'cy', 'APPROVED')])
    const box = await mergeBox()
    expect(await within(box).findByText('Approved by cy')).toBeTruthy()
    expect(within(box).queryByText(/Changes requested/)).toBeNull()
    expect(within(box).getByRole('button', { name: 'Merge pull request' }).className).toContain('btn-primary')
  })

  it('offers the plain merge when the request for changes was dismissed', async () => {
    open([review(9, 'cy', 'REQUEST_CHANGES', { dismissed: true })])
    const box = await mergeBox()
    expect(await within(box).findByRole('button', { name: 'Merge pull request' })).toBeTruthy()
    expect(within(box).queryByText(/Changes requested/)).toBeNull()
  })
})

describe('the conversation after a push', () => {
  const first = '1'.repeat(40)
  const second = '2'.repeat(40)
  const push = (id: number, body: object, extra: Partial<TimelineEvent> = {}): TimelineEvent => ({
    ...schemaFixture('Timeline', {
      id,
      type: 'pull_push',
      user: schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
      body: JSON.stringify(body),
      created_at: '2026-01-05T00:00:00Z',
      updated_at: '2026-01-05T00:00:00Z',
    }),
    ...extra,
  })

  it('lists the commits a push brought, with links to them, and a forced push from and to', async () => {
    open([], {
      [`GET ${REPO}/issues/4/timeline`]: [
        push(
          1,
          { is_force_push: false, commit_ids: [first, second] },
          {
            commits: [
              { sha: first, subject: 'Return one', html_url: '' },
              { sha: second, subject: 'Grow', html_url: '' },
            ],
          },
        ),
        push(2, { is_force_push: true, commit_ids: [second, HEAD] }),
      ],
    })
    expect(await screen.findByText('pushed 2 commits')).toBeTruthy()
    const list = screen.getByRole('list', { name: 'Pushed commits' })
    expect(within(list).getByText('Return one')).toBeTruthy()
    expect(within(list).getByRole('link', { name: '1111111' }).getAttribute('href')).toBe(`/ada/engine/commit/${first}`)
    expect(screen.getByText('force-pushed the branch')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'bbbbbbb' }).getAttribute('href')).toBe(`/ada/engine/commit/${HEAD}`)
  })

  it('folds a line comment the head outdated and marks it', async () => {
    const comment = (id: number, position: number, outdated: boolean): ReviewComment => schemaFixture('ReviewComment', {
      id,
      body: `Comment on ${position}`,
      body_html: `<p>Comment on ${position}</p>`,
      user: schemaFixture('ForgeUser', { id: 3, login: 'cy' }),
      pull_request_review_id: 9,
      path: 'mill.go',
      commit_id: outdated ? OLD : HEAD,
      original_commit_id: OLD,
      position,
      original_position: 0,
      created_at: '2026-01-03T00:00:00Z',
      outdated,
    })
    open([review(9, 'cy', 'REQUEST_CHANGES', { comments_count: 2 })], { [`GET ${REPO}/pulls/4/reviews/9/comments`]: [comment(1, 3, true), comment(2, 5, false)] })
    const badge = await screen.findByText('Outdated')
    const folded = badge.closest('details') as HTMLDetailsElement
    expect(folded.open).toBe(false)
    expect(within(folded).getByText('mill.go:3')).toBeTruthy()
    expect(await within(folded).findByText('Comment on 3')).toBeTruthy()
    // The current one is shown as it was, unfolded.
    expect((await screen.findByText('Comment on 5')).closest('details')).toBeNull()
    expect(screen.getAllByText('Outdated')).toHaveLength(1)
  })
})
