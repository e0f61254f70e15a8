import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { REPO, repoFixture, stubApi, text } from '@/test/forge'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { approvalsOf, type PullReview } from './api'
import PullRequestScreen from './PullRequestScreen'
import { PULL_HEAD, pullFixture } from './testing'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('pulls', 'issues', 'repositories', 'wallet', 'branches', 'statuses')

const HEAD = PULL_HEAD
const pr = pullFixture()
const review = (id: number, login: string, state: PullReview['state']): PullReview => schemaFixture('Review', { id, user: schemaFixture('ForgeUser', { id, login }), state, commit_id: HEAD, submitted_at: '2026-01-02T00:00:00Z' })

describe('merge requirements', () => {
  it('counts each reviewer once, by their latest verdict', () => {
    expect(approvalsOf([review(1, 'cy', 'APPROVED'), review(2, 'dee', 'APPROVED'), review(3, 'cy', 'REQUEST_CHANGES'), review(4, 'dee', 'COMMENT')])).toBe(1)
  })

  it('explains which checks and approvals the base branch still needs', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) }),
      [`GET ${REPO}/pulls/4`]: pr,
      [`GET ${REPO}/issues/4/comments`]: [],
      [`GET ${REPO}/pulls/4/reviews`]: [review(9, 'cy', 'APPROVED')],
      [`GET ${REPO}/pulls/4.diff`]: text(''),
      [`GET ${REPO}/labels`]: [],
      [`GET ${REPO}/branch_protections`]: [
        { rule_name: 'main', branch_name: 'main', enable_push: false, enable_push_whitelist: false, push_whitelist_usernames: [], enable_status_check: true, status_check_contexts: ['build', 'lint'], required_approvals: 2 },
      ],
      [`GET ${REPO}/commits/${HEAD}/status`]: {
        state: 'failure',
        sha: HEAD,
        total_count: 1,
        statuses: [{ id: 1, status: 'failure', context: 'build', description: '', target_url: '', created_at: '2026-01-01T00:00:00Z' }],
      },
    })
    signIn()
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    expect(await screen.findByText('The check build is failing on the head commit.')).toBeTruthy()
    expect(screen.getByText('The check lint has not reported on the head commit.')).toBeTruthy()
    expect(await screen.findByText('1 of 2 required approvals from people who may write.')).toBeTruthy()
  })

  it('links a required check to its page, such as its Actions run', async () => {
    const run = 'http://localhost/ada/engine/actions/runs/42'
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/pulls/4`]: pr,
      [`GET ${REPO}/issues/4/comments`]: [],
      [`GET ${REPO}/pulls/4/reviews`]: [],
      [`GET ${REPO}/pulls/4.diff`]: text(''),
      [`GET ${REPO}/labels`]: [],
      [`GET ${REPO}/branch_protections`]: [
        { rule_name: 'main', branch_name: 'main', enable_push: false, enable_push_whitelist: false, push_whitelist_usernames: [], enable_status_check: true, status_check_contexts: ['CI / build (push)'], required_approvals: 0 },
      ],
      [`GET ${REPO}/commits/${HEAD}/status`]: {
        state: 'success',
        sha: HEAD,
        total_count: 1,
        statuses: [{ id: 1, status: 'success', context: 'CI / build (push)', description: '', target_url: run, created_at: '2026-01-01T00:00:00Z' }],
      },
    })
    renderScreen(<PullRequestScreen />, '/ada/engine/pulls/4')
    const link = await screen.findByRole('link', { name: 'The check CI / build (push) is successful on the head commit.' })
    expect(link.getAttribute('href')).toBe(run)
  })
})
