import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { noContent, REPO, repoFixture, stubApi, text } from '@/test/forge'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import type { PullReview } from './api'
import PullRequestScreen from './PullRequestScreen'
import { PULL_HEAD, pullFixture } from './testing'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('pulls', 'issues', 'repositories', 'wallet', 'branches', 'statuses', 'reviewers')

const HEAD = PULL_HEAD
const pr = pullFixture({
  requested_reviewers: [schemaFixture('ForgeUser', { id: 5, login: 'dee' })],
})
const review = (id: number, login: string, state: PullReview['state'], dismissed = false): PullReview => schemaFixture('Review', {
  id,
  user: schemaFixture('ForgeUser', { id, login }),
  state,
  body: '',
  commit_id: HEAD,
  comments_count: 0,
  submitted_at: '2026-01-02T00:00:00Z',
  dismissed,
})

function stub(reviews: PullReview[], admin: boolean) {
  return stubApi({
    [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin, push: true, pull: true }) }),
    [`GET ${REPO}/pulls/4`]: pr,
    [`GET ${REPO}/issues/4/comments`]: [],
    [`GET ${REPO}/issues/4/timeline`]: [],
    [`GET ${REPO}/pulls/4/reviews`]: reviews,
    [`GET ${REPO}/pulls/4.diff`]: text(''),
    [`GET ${REPO}/labels`]: [],
    [`GET ${REPO}/branch_protections`]: [],
    [`POST ${REPO}/pulls/4/requested_reviewers`]: [review(12, 'eve', 'REQUEST_REVIEW')],
    [`DELETE ${REPO}/pulls/4/requested_reviewers`]: noContent(),
    [`POST ${REPO}/pulls/4/reviews/9/dismissals`]: review(9, 'cy', 'APPROVED', true),
    [`POST ${REPO}/pulls/4/reviews/9/undismissals`]: review(9, 'cy', 'APPROVED'),
  })
}

describe('review requests and dismissal', () => {
  it('lists requested reviewers, asks more and withdraws a request', async () => {
    const api = stub([review(9, 'cy', 'APPROVED'), review(11, 'dee', 'REQUEST_REVIEW')], false)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    const withdraw = await screen.findByLabelText('Withdraw the review request of dee', {}, { timeout: 5000 })
    // A request is not a review: the timeline shows only cy's approval.
    expect(await screen.findByLabelText('cy approved')).toBeTruthy()
    expect(screen.queryByLabelText('dee reviewed')).toBeNull()
    fireEvent.change(screen.getByLabelText('Ask for a review'), { target: { value: '@eve, frank' } })
    fireEvent.submit(screen.getByLabelText('Ask for a review'))
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/requested_reviewers`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/pulls/4/requested_reviewers`)[0].body).toEqual({ reviewers: ['eve', 'frank'] })
    fireEvent.click(withdraw)
    await waitFor(() => expect(api.sent('DELETE', `${REPO}/pulls/4/requested_reviewers`)).toHaveLength(1))
    expect(api.sent('DELETE', `${REPO}/pulls/4/requested_reviewers`)[0].body).toEqual({ reviewers: ['dee'] })
    // Not a maintainer: no dismissal.
    expect(screen.queryByText('Dismiss review')).toBeNull()
  })

  it('lets maintainers dismiss an approval with a reason, and shows the dismissed state', async () => {
    const api = stub([review(9, 'cy', 'APPROVED')], true)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    fireEvent.click(await screen.findByText('Dismiss review', {}, { timeout: 5000 }))
    const reason = await screen.findByLabelText('Reason for dismissing')
    fireEvent.change(reason, { target: { value: 'Stale' } })
    fireEvent.submit(reason)
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/reviews/9/dismissals`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/pulls/4/reviews/9/dismissals`)[0].body).toEqual({ message: 'Stale' })
  })

  it('shows a dismissed review as dismissed, with undismiss for maintainers', async () => {
    const api = stub([review(9, 'cy', 'APPROVED', true)], true)
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    expect(await screen.findByText('Dismissed', {}, { timeout: 5000 })).toBeTruthy()
    fireEvent.click(screen.getByText('Undismiss'))
    await waitFor(() => expect(api.sent('POST', `${REPO}/pulls/4/reviews/9/undismissals`)).toHaveLength(1))
  })
})
