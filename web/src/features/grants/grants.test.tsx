import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { callsTo, fakeChain, type FakeChain, HASH, installWallet, OTHER, PARAMS, stubChain, WALLET } from '@/test/chain'
import { schemaFixture } from '@/test/schemaFixture'
import { json, preloadNamespaces, renderScreen, signIn } from '@/test/render'
import type { Grant } from './api'
import GrantScreen from './GrantScreen'
import GrantsScreen from './GrantsScreen'
import { checkGrantTerms, emptyGrantTerms, type GrantTerms } from './terms'

preloadNamespaces('grants', 'wallet')

const R2 = '0x1111111111111111111111111111111111111111'
const R3 = '0x2222222222222222222222222222222222222222'
const BOB = '0x3333333333333333333333333333333333333333'

function grant(over: Partial<Grant> & { id: number }): Grant {
  return {
    title: `Grant ${over.id}`,
    proposer: { address: OTHER, username: 'grace' },
    status: 'active',
    failure: '',
    total: 7_000_000,
    released: 3_000_000,
    refunded: 0,
    expiry: 500,
    reviewers: [
      { address: WALLET, username: 'ada' },
      { address: R2, username: '' },
      { address: R3, username: '' },
    ],
    approvals_needed: 2,
    created_height: 3,
    created_at: '2026-11-20T09:00:00Z',
    milestones: [
      {
        index: 0,
        description: 'Translate the guide',
        amount: 3_000_000,
        recipient: { address: BOB, username: 'bob' },
        released: true,
        released_height: 6,
        approvals: [
          { reviewer: { address: R2, username: '' }, height: 5, time: '2026-11-20T09:05:00Z' },
          { reviewer: { address: R3, username: '' }, height: 6, time: '2026-11-20T09:06:00Z' },
        ],
      },
      {
        index: 1,
        description: 'Translate the FAQ\nand the API docs',
        amount: 4_000_000,
        recipient: { address: BOB, username: 'bob' },
        released: false,
        released_height: 0,
        approvals: [{ reviewer: { address: R3, username: '' }, height: 7, time: '2026-11-20T09:07:00Z' }],
      },
    ],
    ...over,
  }
}

const GRANT_PARAMS = {
  ...PARAMS,
  types: {
    ...PARAMS.types,
    GrantApprove: [
      { name: 'from', type: 'address' },
      { name: 'grant', type: 'uint256' },
      { name: 'milestone', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
    ],
  },
}

/** Stubs the chain API plus /api/v1/grants over grants. */
function stubGrants(grants: Grant[], chain: FakeChain = fakeChain({ params: GRANT_PARAMS })) {
  const fetchMock = stubChain(chain)
  const chainAnswer = fetchMock.getMockImplementation()!
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://node.test')
    if (url.pathname === '/api/v1/grants') {
      const status = url.searchParams.get('status')
      const items = grants.filter((g) => !status || g.status === status)
      const res = json(items)
      res.headers.set('X-Total-Count', String(items.length))
      return res
    }
    const m = /^\/api\/v1\/grants\/(\d+)$/.exec(url.pathname)
    if (m) {
      const found = grants.find((g) => g.id === Number(m[1]))
      return found ? json(found) : json({ message: 'there is no grant', code: 'not_found' }, 404)
    }
    return chainAnswer(input, init)
  })
  return fetchMock
}

describe('checkGrantTerms', () => {
  const rules = { decimals: 6, symbol: 'DFG', separator: '.', height: 100 }
  const good: GrantTerms = {
    milestones: [
      { description: ' Write the guide ', amount: '1.5', recipient: BOB },
      { description: 'Line one\nline two', amount: '2', recipient: R2 },
    ],
    reviewers: `${R2}, ${R3}\n${WALLET}`,
    expiry: '250',
  }

  it('serializes valid terms to the payload the chain reads', () => {
    const { errors, payload } = checkGrantTerms(good, rules)
    expect(errors).toEqual({})
    expect(payload).toEqual({
      milestones: JSON.stringify([
        { description: 'Write the guide', amount: '1500000', recipient: BOB },
        { description: 'Line one\nline two', amount: '2000000', recipient: R2 },
      ]),
      reviewers: `${R2},${R3},${WALLET}`,
      expiry: '250',
    })
  })

  it('names every field that breaks a rule, and gives no payload', () => {
    const bad: GrantTerms = {
      milestones: [
        { description: '', amount: '0', recipient: '0x12' },
        { description: 'tab\there', amount: '1.1234567', recipient: '0x0000000000000000000000000000000000000000' },
        { description: 'x'.repeat(1001), amount: 'abc', recipient: '' },
      ],
      reviewers: `${R2},${R2.toUpperCase().replace('0X', '0x')}`,
      expiry: '100',
    }
    const { errors, payload } = checkGrantTerms(bad, rules)
    expect(payload).toBeUndefined()
    expect(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.key]))).toEqual({
      'milestones.0.description': 'description.required',
      'milestones.0.amount': 'amount.positive',
      'milestones.0.recipient': 'address.format',
      'milestones.1.description': 'description.control',
      'milestones.1.amount': 'amount.precision',
      'milestones.1.recipient': 'address.zero',
      'milestones.2.description': 'description.tooLong',
      'milestones.2.amount': 'amount.format',
      'milestones.2.recipient': 'address.required',
      reviewers: 'reviewers.twice',
      expiry: 'expiry.past',
    })
  })

  it('bounds the milestones and reviewers', () => {
    const many = { ...good, milestones: Array.from({ length: 21 }, () => good.milestones[0]) }
    expect(checkGrantTerms(many, rules).errors.milestones?.key).toBe('milestones.count')
    expect(checkGrantTerms({ ...good, milestones: [] }, rules).errors.milestones?.key).toBe('milestones.count')
    const reviewers = Array.from({ length: 16 }, (_, i) => `0x${String(i + 1).padStart(40, '0')}`).join(',')
    expect(checkGrantTerms({ ...good, reviewers }, rules).errors.reviewers?.key).toBe('reviewers.count')
    expect(checkGrantTerms({ ...good, reviewers: 'alice' }, rules).errors.reviewers?.key).toBe('reviewers.format')
    expect(checkGrantTerms({ ...good, expiry: '01' }, rules).errors.expiry?.key).toBe('expiry.format')
    expect(checkGrantTerms(emptyGrantTerms(), rules).payload).toBeUndefined()
  })
})

describe('GrantsScreen', () => {
  it('lists grants with their milestones: progress, amounts, recipients and approvals', async () => {
    stubGrants([grant({ id: 2 })])
    renderScreen(<GrantsScreen />, '/grants')
    const card = await screen.findByRole('article', { name: 'Grant 2' })
    expect(within(card).getByText('Active')).toBeTruthy()
    expect(within(card).getByRole('progressbar', { name: 'Released of Grant 2' }).getAttribute('aria-valuenow')).toBe('428')
    expect(within(card).getAllByText('3 DFG released of 7 DFG')).toHaveLength(1)
    expect(within(card).getByText('Translate the FAQ\nand the API docs', { normalizer: (s) => s })).toBeTruthy()
    expect(within(card).getByText('Released at block 6')).toBeTruthy()
    expect(within(card).getByText(/approvals: 1 of 2 needed \(3 reviewers\)/)).toBeTruthy()
    expect(within(card).getAllByRole('link', { name: 'bob' })[0].getAttribute('href')).toBe('/user/bob')
    expect(within(card).getByRole('link', { name: 'Grant 2' }).getAttribute('href')).toBe('/grants/2')
    // Signed out: no approval, and applying asks to sign in.
    expect(within(card).queryByRole('button')).toBeNull()
    expect(screen.getByRole('button', { name: 'Apply for a grant' }).hasAttribute('disabled')).toBe(true)
  })

  it('filters by status through the API and shows the empty state', async () => {
    const fetchMock = stubGrants([grant({ id: 2 })])
    renderScreen(<GrantsScreen />, '/grants?status=expired')
    expect(await screen.findByText('No grant has expired.')).toBeTruthy()
    expect(callsTo(fetchMock, '/api/v1/grants').map((u) => u.searchParams.get('status'))).toContain('expired')
  })

  it('lets a reviewer approve a milestone in the wallet, signing GrantApprove', async () => {
    const wallet = installWallet()
    const posted: unknown[] = []
    const chain = fakeChain({ params: GRANT_PARAMS })
    chain.relay = (body) => {
      posted.push(body)
      return schemaFixture('chain.Result', { hash: HASH(96), height: 8 })
    }
    stubGrants([grant({ id: 2 })], chain)
    signIn(WALLET)
    renderScreen(<GrantsScreen />, '/grants')
    const card = await screen.findByRole('article', { name: 'Grant 2' })
    // The released milestone has no button; the open one has.
    expect(within(card).queryByRole('button', { name: 'Approve milestone 1' })).toBeNull()
    fireEvent.click(within(card).getByRole('button', { name: 'Approve milestone 2' }))
    await within(card).findByText('Committed in block 8.')
    const [signed] = wallet.signed()
    expect(signed.primaryType).toBe('GrantApprove')
    expect(Object.entries(signed.message)).toEqual([
      ['from', WALLET.toLowerCase()],
      ['grant', '2'],
      ['milestone', '1'],
      ['nonce', '3'],
    ])
    expect(posted).toMatchObject([{ type: 'GrantApprove', message: { from: WALLET, grant: '2', milestone: '1', nonce: '3' } }])
  })

  it('shows a reviewer who approved, and no one else, no button', async () => {
    const approved = grant({ id: 2 })
    approved.milestones[1].approvals.push({ reviewer: { address: WALLET, username: 'ada' }, height: 8, time: '2026-11-20T09:08:00Z' })
    stubGrants([approved, grant({ id: 3, reviewers: [{ address: R2, username: '' }], approvals_needed: 1 })])
    signIn(WALLET)
    renderScreen(<GrantsScreen />, '/grants')
    const mine = await screen.findByRole('article', { name: 'Grant 2' })
    expect(within(mine).getByText('You approved this milestone.')).toBeTruthy()
    expect(within(mine).queryByRole('button')).toBeNull()
    expect(within(screen.getByRole('article', { name: 'Grant 3' })).queryByRole('button')).toBeNull()
    expect(screen.getByRole('link', { name: 'Apply for a grant' }).getAttribute('href')).toBe('/governance/new?type=grant')
  })
})

describe('GrantScreen', () => {
  it('shows one grant and links its proposal', async () => {
    stubGrants([grant({ id: 2, status: 'rejected', failure: 'the treasury holds 5 micro-units; the grant asks for 7000000', released: 0 })])
    renderScreen(<GrantScreen />, '/grants/2')
    expect(await screen.findByRole('heading', { level: 2, name: 'Grant 2' })).toBeTruthy()
    expect(screen.getByText('Rejected')).toBeTruthy()
    expect(screen.getByText(/Not executed: the treasury holds 5 micro-units/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'View the proposal' }).getAttribute('href')).toBe('/governance/2')
  })

  it('says a grant that does not exist is not found', async () => {
    stubGrants([])
    renderScreen(<GrantScreen />, '/grants/9')
    expect(await screen.findByText('Grant not found')).toBeTruthy()
    expect(screen.getByText("There is no grant #9. A grant's number is its proposal's.")).toBeTruthy()
  })
})
