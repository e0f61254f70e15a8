import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { callsTo } from '@/test/chain'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import GovernanceScreen from './GovernanceScreen'
import { fakeGov, proposal, stubGov, WALLET } from './testing'

preloadNamespaces('governance', 'wallet')

const selected = () => screen.getByRole('tab', { selected: true }).textContent
const panel = () => screen.getByRole('tabpanel')

const PROPOSALS = [
  proposal({ id: 4, title: 'Raise the quorum', type: 'param', status: 'active', tally: { yes: 1, no: 0, abstain: 0, total_power: 10, voters: 3, quorum_bps: 3340, threshold_bps: 5000 } }),
  proposal({ id: 3, title: 'Fund the docs', type: 'spend', status: 'executed', ended_height: 30, proposer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', proposer_name: '' }),
  proposal({ id: 2, title: 'Drop the old validator', type: 'validator', status: 'failed', failure: 'unknown validator' }),
  proposal({ id: 1, title: 'Adopt a code of conduct', status: 'rejected', ended_height: 25 }),
]

describe('GovernanceScreen', () => {
  it('lists the proposals newest first with their status label, type and proposer', async () => {
    stubGov(fakeGov({ proposals: PROPOSALS }))
    renderScreen(<GovernanceScreen />, '/governance')
    const link = await screen.findByRole('link', { name: '#4 Raise the quorum' })
    expect(link.getAttribute('href')).toBe('/governance/4')
    const items = within(panel()).getAllByRole('listitem')
    expect(items.map((li) => within(li).getByRole('heading').textContent)).toEqual([
      '#4 Raise the quorum',
      '#3 Fund the docs',
      '#2 Drop the old validator',
      '#1 Adopt a code of conduct',
    ])
    expect(within(items[0]).getByText('Active').className).toContain('status-active')
    expect(within(items[0]).getByText('Parameter change')).toBeTruthy()
    expect(within(items[0]).getByText(/voting ends at block 20/)).toBeTruthy()
    expect(within(items[0]).getByText(/3 voters/)).toBeTruthy()
    expect(within(items[0]).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user/ada')
    expect(within(items[1]).getByText('Executed')).toBeTruthy()
    expect(within(items[1]).getByText(/voting ended at block 30/)).toBeTruthy()
    expect(within(items[1]).getByRole('link', { name: '0x7099…79C8' })).toBeTruthy()
    expect(within(items[2]).getByText('Failed').className).toContain('status-failed')
    expect(screen.getByRole('heading', { level: 2, name: 'How voting power works' })).toBeTruthy()
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All', 'Active', 'Passed', 'Rejected', 'Executed', 'Failed'])
  })

  it('filters by status with the tabs (click and arrow keys), asking the API for that status, and keeps the filter in the URL', async () => {
    const fetchMock = stubGov(fakeGov({ proposals: PROPOSALS }))
    renderScreen(<GovernanceScreen />, '/governance')
    await screen.findByRole('link', { name: '#4 Raise the quorum' })

    fireEvent.click(screen.getByRole('tab', { name: 'Failed' }))
    expect(selected()).toBe('Failed')
    expect(await within(panel()).findByRole('link', { name: '#2 Drop the old validator' })).toBeTruthy()
    await waitFor(() => expect(within(panel()).getAllByRole('listitem')).toHaveLength(1))
    expect(callsTo(fetchMock, '/api/v1/governance/proposals').map((u) => u.searchParams.get('status'))).toContain('failed')
    expect(window.location.search).toBe('?status=failed')

    fireEvent.keyDown(screen.getByRole('tab', { name: 'Failed' }), { key: 'Home' })
    expect(selected()).toBe('All')
    expect(window.location.search).toBe('')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(selected()).toBe('Passed')
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Passed' }))
    expect(await within(panel()).findByText('No passed proposals')).toBeTruthy()
  })

  it('opens on the filter in the URL', async () => {
    stubGov(fakeGov({ proposals: PROPOSALS }))
    renderScreen(<GovernanceScreen />, '/governance?status=rejected')
    expect(selected()).toBe('Rejected')
    expect(await within(panel()).findByRole('link', { name: '#1 Adopt a code of conduct' })).toBeTruthy()
  })

  it('shows the empty state of each filter', async () => {
    stubGov(fakeGov({ proposals: [] }))
    renderScreen(<GovernanceScreen />, '/governance')
    expect(await screen.findByText('No proposals yet')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Executed' }))
    expect(await screen.findByText('No executed proposals')).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: 'Failed' }))
    expect(await screen.findByText('No failed proposals')).toBeTruthy()
  })

  it('pages through proposals', async () => {
    const many = Array.from({ length: 25 }, (_, i) => proposal({ id: 25 - i }))
    const fetchMock = stubGov(fakeGov({ proposals: many }))
    renderScreen(<GovernanceScreen />, '/governance')
    expect(await screen.findByText('Page 1 of 2')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByRole('link', { name: '#5 Proposal 5' })).toBeTruthy()
    expect(screen.getByText('Page 2 of 2')).toBeTruthy()
    expect(callsTo(fetchMock, '/api/v1/governance/proposals').map((u) => u.searchParams.get('page'))).toContain('2')
  })

  it('links a signed-in user to the proposal form', async () => {
    stubGov()
    signIn(WALLET)
    renderScreen(<GovernanceScreen />, '/governance')
    const create = await screen.findByRole('link', { name: 'Create proposal' })
    expect(create.getAttribute('href')).toBe('/governance/new')
    expect(screen.queryByText(/milestone/)).toBeNull()
  })

  it('asks a signed-out visitor to sign in before proposing', async () => {
    stubGov()
    renderScreen(<GovernanceScreen />, '/governance')
    const button = (await screen.findByRole('button', { name: 'Create proposal' })) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Sign in with your wallet to create a proposal.')
    expect(screen.queryByText(/milestone/)).toBeNull()
  })
})
