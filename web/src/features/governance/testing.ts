// Test doubles for the governance pages (imported by tests only): the chain
// API of test/chain.ts plus /api/v1/governance/* and the param docs over
// in-memory fixtures in the contract's shapes.
import { fakeChain, type FakeChain, OTHER, PARAMS, stubChain, WALLET } from '@/test/chain'
import { json } from '@/test/render'
import type { GovChainParams, ParamDoc } from './api'
import type { Proposal, Vote, VotingPower } from './proposals'

export { OTHER, WALLET }

/** The chain params with the governance group and the Propose and Vote types, as a node with governance publishes them. */
export const GOV_PARAMS: GovChainParams = {
  ...PARAMS,
  types: {
    ...PARAMS.types,
    Propose: [
      { name: 'from', type: 'address' },
      { name: 'proposalType', type: 'string' },
      { name: 'title', type: 'string' },
      { name: 'description', type: 'string' },
      { name: 'payload', type: 'string' },
      { name: 'deposit', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
    ],
    Vote: [
      { name: 'from', type: 'address' },
      { name: 'proposal', type: 'uint256' },
      { name: 'option', type: 'string' },
      { name: 'nonce', type: 'uint256' },
    ],
  },
  gov: { votingPeriodBlocks: 100, proposalDeposit: 1_000_000_000, minProposerStake: 2_000_000, quorumBps: 3_340, thresholdBps: 5_000, timelockBlocks: 10 },
}

export const PARAM_DOCS: ParamDoc[] = [
  { name: 'unbondingBlocks', group: 'ledger', unit: 'blocks', value: '100800', default: '100800', min: '1', max: '1000000', doc: 'About seven days.' },
  { name: 'quorumBps', group: 'gov', unit: 'bps', value: '3340', default: '3340', min: '1', max: '10000', doc: 'More than a third must take part.' },
  { name: 'proposalDeposit', group: 'gov', unit: 'micro', value: '1000000000', default: '1000000000', min: '0', max: '9007199254740992', doc: 'Spam costs something.' },
]

export function proposal(over: Partial<Proposal> & { id: number }): Proposal {
  return {
    proposer: WALLET,
    proposer_name: 'ada',
    type: 'text',
    title: `Proposal ${over.id}`,
    description: 'Why **this** matters.',
    description_html: '<p>Why <strong>this</strong> matters.</p>',
    payload: {},
    deposit: 1_000_000_000,
    status: 'active',
    failure: '',
    created_height: 5,
    created_at: '2026-11-20T09:00:00Z',
    voting_end_height: 20,
    execute_height: 0,
    tally: { yes: 0, no: 0, abstain: 0, total_power: 10_000_000, voters: 0, quorum_bps: 3_340, threshold_bps: 5_000 },
    ended_height: null,
    ...over,
  }
}

export function vote(over: Partial<Vote> & { voter: string }): Vote {
  return { proposal: 1, voter_name: '', option: 'yes', power: 1_000_000, height: 6, time: '2026-11-20T09:01:00Z', ...over }
}

export interface FakeGov {
  proposals: Proposal[]
  votes: Vote[]
  power: (address: string, proposal: number | null) => VotingPower
}

export function fakeGov(over: Partial<FakeGov> = {}): FakeGov {
  return {
    proposals: [proposal({ id: 1 })],
    votes: [],
    power: (address, proposal) => ({ address, stake: 2_000_000, reputation: 250, multiplierBps: 12_500, power: 2_500_000, proposal }),
    ...over,
  }
}

function paged<T>(items: T[], url: URL): Response {
  const page = Number(url.searchParams.get('page') ?? 1)
  const limit = Number(url.searchParams.get('limit') ?? 20)
  const res = json(items.slice((page - 1) * limit, page * limit))
  res.headers.set('X-Total-Count', String(items.length))
  return res
}

const notFound = () => json({ message: 'not found', code: 'not_found' }, 404)

/** Stubs fetch with the chain API over chain and the governance API over gov (both mutable between polls). */
export function stubGov(gov: FakeGov = fakeGov(), chain: FakeChain = fakeChain({ params: GOV_PARAMS })) {
  const fetchMock = stubChain(chain)
  const chainAnswer = fetchMock.getMockImplementation()!
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://node.test')
    const p = url.pathname
    if (p === '/api/v1/chain/param-docs') return json(PARAM_DOCS)
    if (p === '/api/v1/markdown' && init?.method === 'POST') {
      const { text } = JSON.parse(String(init.body)) as { text: string }
      return new Response(`<p>${text.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')}</p>`, { headers: { 'Content-Type': 'text/html' } })
    }
    if (p === '/api/v1/governance/proposals') {
      const status = url.searchParams.get('status')
      return paged(
        gov.proposals.filter((x) => !status || x.status === status),
        url,
      )
    }
    let m = /^\/api\/v1\/governance\/proposals\/(\d+)(\/votes)?$/.exec(p)
    if (m) {
      const id = Number(m[1])
      const found = gov.proposals.find((x) => x.id === id)
      if (!found) return notFound()
      const voter = url.searchParams.get('voter')?.toLowerCase()
      return m[2] ? paged(gov.votes.filter((v) => v.proposal === id && (!voter || v.voter.toLowerCase() === voter)), url) : json(found)
    }
    m = /^\/api\/v1\/governance\/power\/([^/]+)$/.exec(p)
    if (m) {
      const proposal = url.searchParams.get('proposal')
      return json(gov.power(decodeURIComponent(m[1]), proposal === null ? null : Number(proposal)))
    }
    return chainAnswer(input, init)
  })
  return fetchMock
}
