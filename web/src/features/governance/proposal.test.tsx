import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { block, callsTo, fakeChain, HASH, installWallet } from '@/test/chain'
import { schemaFixture } from '@/test/schemaFixture'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import ProposalScreen from './ProposalScreen'
import { readTally } from './proposals'
import { fakeGov, GOV_PARAMS, OTHER, proposal, stubGov, vote, WALLET } from './testing'

preloadNamespaces('governance', 'wallet')

const TALLY = { yes: 6_000_000, no: 2_000_000, abstain: 2_000_000, total_power: 20_000_000, voters: 3, quorum_bps: 3_340, threshold_bps: 5_000 }

/** Blocks 6 seconds apart, so the countdown can estimate a time. */
const paced = () => fakeChain({ params: GOV_PARAMS, blocks: [{ ...block(7), time: '2026-11-20T10:00:06Z' }, block(6)] })

const text = (testId: string) => screen.getByTestId(testId).textContent

describe('readTally', () => {
  it('computes shares, turnout, quorum and threshold in integers', () => {
    expect(readTally(TALLY)).toEqual({
      cast: 10_000_000n,
      shares: { yes: 6_000, no: 2_000, abstain: 2_000 },
      turnoutBps: 5_000,
      yesOfDecidedBps: 7_500,
      quorumReached: true,
      thresholdReached: true,
    })
    // Exactly at the threshold is not above it; exactly at the quorum reaches it.
    const even = readTally({ ...TALLY, yes: 1, no: 1, abstain: 0, total_power: 6 })
    expect(even.thresholdReached).toBe(false)
    expect(readTally({ ...TALLY, yes: 1, no: 0, abstain: 0, total_power: 3, quorum_bps: 3_334 }).quorumReached).toBe(false)
    expect(readTally({ ...TALLY, yes: 1, no: 0, abstain: 0, total_power: 3, quorum_bps: 3_333 }).quorumReached).toBe(true)
    expect(readTally({ ...TALLY, yes: 0, no: 0, abstain: 0 })).toMatchObject({ shares: { yes: 0, no: 0, abstain: 0 }, quorumReached: false, thresholdReached: false })
  })
})

describe('ProposalScreen', () => {
  it('shows the title, status, proposer, type and payload, and the rendered description', async () => {
    stubGov(
      fakeGov({
        proposals: [proposal({ id: 3, title: 'Fund the docs', type: 'spend', payload: { to: OTHER, amount: '1500000', reason: 'Docs rewrite' }, tally: TALLY })],
      }),
      paced(),
    )
    renderScreen(<ProposalScreen />, '/governance/3')
    expect(await screen.findByRole('heading', { level: 1, name: 'Fund the docs' })).toBeTruthy()
    expect(screen.getByText('Active').className).toContain('status-active')
    expect(screen.getByText('Proposal #3')).toBeTruthy()
    const details = screen.getByRole('region', { name: 'Details' })
    const rows = Object.fromEntries(within(details).getAllByRole('definition').map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]))
    expect(rows).toMatchObject({ Proposer: 'ada', Type: 'Treasury spend', Recipient: OTHER, Amount: '1.5 DFG', Reason: 'Docs rewrite', Deposit: '1,000 DFG' })
    expect(within(details).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/user/ada')
    const desc = screen.getByRole('region', { name: 'Description' })
    expect(within(desc).getByText('this').tagName).toBe('STRONG')
  })

  it('shows a role proposal’s account, role and action in words', async () => {
    stubGov(fakeGov({ proposals: [proposal({ id: 4, title: 'Grace as ambassador', type: 'role', payload: { account: OTHER, role: 'ambassador', action: 'grant' } })] }), paced())
    renderScreen(<ProposalScreen />, '/governance/4')
    const details = await screen.findByRole('region', { name: 'Details' })
    const rows = Object.fromEntries(within(details).getAllByRole('definition').map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]))
    expect(rows).toMatchObject({ Type: 'Community role', Account: OTHER, Role: 'Ambassador', Action: 'Grant' })
  })

  it('shows the live tally with each option’s power and share, and whether quorum and threshold are reached', async () => {
    stubGov(fakeGov({ proposals: [proposal({ id: 1, tally: TALLY })] }), paced())
    renderScreen(<ProposalScreen />, '/governance/1')
    await screen.findByRole('region', { name: 'Tally' })
    await waitFor(() => expect(text('tally-yes')).toContain('6 · 60%'))
    expect(text('tally-no')).toContain('2 · 20%')
    expect(text('tally-abstain')).toContain('2 · 20%')
    expect(screen.getByText('3 voters')).toBeTruthy()
    expect(text('tally-quorum')).toBe('Quorum: 33.4% of the voting power50% of 20 voted. Reached')
    expect(text('tally-threshold')).toBe('Threshold: yes above 50% of yes and noYes is 75% of yes and no. Reached')
    const yesBar = screen.getByTestId('tally-yes').querySelector('.tally-bar > span') as HTMLElement
    expect(yesBar.style.width).toBe('60%')
  })

  it('says when quorum and threshold are not met yet', async () => {
    stubGov(fakeGov({ proposals: [proposal({ id: 1, tally: { ...TALLY, yes: 1_000_000, no: 2_000_000, abstain: 0 } })] }), paced())
    renderScreen(<ProposalScreen />, '/governance/1')
    await waitFor(() => expect(text('tally-quorum')).toContain('15% of 20 voted. Not yet'))
    expect(text('tally-threshold')).toContain('Yes is 33.33% of yes and no. Not yet')
  })

  it('counts down the blocks to the end of voting from the polled height, with a time estimate', async () => {
    const chain = paced()
    const fetchMock = stubGov(fakeGov({ proposals: [proposal({ id: 1, voting_end_height: 20 })] }), chain)
    renderScreen(<ProposalScreen />, '/governance/1')
    await waitFor(() => expect(text('countdown')).toBe('13 blocks left (about 1 minute)'))
    expect(screen.getByText('Voting ends with block 20; the chain is at block 7.')).toBeTruthy()
    chain.status = { ...chain.status, height: 19 }
    // The height is polled every 2 s.
    await waitFor(() => expect(text('countdown')).toBe('1 block left (about 6 seconds)'), { timeout: 4000 })
    expect(callsTo(fetchMock, '/api/v1/chain/status').length).toBeGreaterThanOrEqual(2)
  }, 10_000)

  it('shows why a failed proposal did not execute, and no vote panel once voting has ended', async () => {
    stubGov(fakeGov({ proposals: [proposal({ id: 2, type: 'validator', status: 'failed', failure: 'unknown validator', ended_height: 20, payload: { pubKey: 'AAAA', power: '0' } })] }), paced())
    signIn(WALLET)
    renderScreen(<ProposalScreen />, '/governance/2')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('The proposal passed, but executing it failed: unknown validator')
    expect(screen.getByText('Failed')).toBeTruthy()
    expect(screen.getByText('Voting ended at block 20.')).toBeTruthy()
    expect(screen.getByText('Power 0 removes the validator from the set.')).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Your vote' })).toBeNull()
  })

  it('links a grant proposal to the grant page, where its milestones are', async () => {
    stubGov(fakeGov({ proposals: [proposal({ id: 4, type: 'grant', title: 'Translations', payload: { milestones: '[]', reviewers: OTHER, expiry: '900' } })] }), paced())
    renderScreen(<ProposalScreen />, '/governance/4')
    expect((await screen.findByRole('link', { name: 'Translations' })).getAttribute('href')).toBe('/grants/4')
  })

  it('lists the voters with their vote and power', async () => {
    stubGov(
      fakeGov({ votes: [vote({ voter: OTHER, voter_name: 'grace', option: 'no', power: 3_000_000, height: 7 }), vote({ voter: WALLET, option: 'yes' })] }),
      paced(),
    )
    renderScreen(<ProposalScreen />, '/governance/1')
    const table = await screen.findByRole('table', { name: 'Voters' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByRole('link', { name: 'grace' }).getAttribute('href')).toBe('/user/grace')
    expect(within(rows[0]).getByText('No')).toBeTruthy()
    expect(within(rows[0]).getByText('3')).toBeTruthy()
    expect(within(rows[1]).getByRole('link', { name: '0x5290…9EE7' })).toBeTruthy()
  })

  it('says a missing proposal is not found', async () => {
    stubGov()
    renderScreen(<ProposalScreen />, '/governance/99')
    expect(await screen.findByRole('heading', { level: 1, name: 'Proposal not found' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'All proposals' }).getAttribute('href')).toBe('/governance')
  })

  it('asks a signed-out visitor to sign in to vote', async () => {
    stubGov(fakeGov(), paced())
    renderScreen(<ProposalScreen />, '/governance/1')
    expect(await screen.findByText('Sign in with your wallet to vote.')).toBeTruthy()
    expect(screen.queryByRole('radio')).toBeNull()
  })

  describe('vote panel', () => {
    it('shows the voting power before anything is signed, then signs a Vote and shows the new vote', async () => {
      const wallet = installWallet()
      const gov = fakeGov()
      const posted: unknown[] = []
      const chain = paced()
      chain.relay = (body) => {
        posted.push(body)
        gov.votes = [vote({ voter: WALLET, option: 'no', height: 8 })]
        return schemaFixture('chain.Result', { hash: HASH(97), height: 8 })
      }
      const fetchMock = stubGov(gov, chain)
      signIn(WALLET)
      renderScreen(<ProposalScreen />, '/governance/1')
      const panel = await screen.findByRole('region', { name: 'Your vote' })
      await waitFor(() => expect(within(panel).getByTestId('vote-power').textContent).toBe('Your voting power: 2.5 (stake 2 DFG × multiplier 1.25×)'))
      expect(callsTo(fetchMock, `/api/v1/governance/power/${WALLET}`).map((u) => u.searchParams.get('proposal'))).toContain('1')
      expect(await within(panel).findByText('You have not voted yet.')).toBeTruthy()
      expect(wallet.requests).toEqual([])

      fireEvent.click(within(panel).getByRole('button', { name: 'Sign and vote' }))
      expect(within(panel).getByRole('alert').textContent).toBe('Choose yes, no or abstain.')
      expect(wallet.requests).toEqual([])

      fireEvent.click(within(panel).getByRole('radio', { name: 'No' }))
      fireEvent.click(within(panel).getByRole('button', { name: 'Sign and vote' }))
      await within(panel).findByText('Committed in block 8.')
      const [signed] = wallet.signed()
      expect(signed.primaryType).toBe('Vote')
      expect(Object.entries(signed.message)).toEqual([
        ['from', WALLET.toLowerCase()],
        ['proposal', '1'],
        ['option', 'no'],
        ['nonce', '3'],
      ])
      expect(posted).toMatchObject([{ type: 'Vote', message: { from: WALLET, proposal: '1', option: 'no', nonce: '3' } }])
      // The vote is read back from the chain.
      await waitFor(() => expect(within(panel).getByTestId('own-vote').textContent).toContain('Your current vote: No'))
      expect((within(panel).getByRole('radio', { name: 'No' }) as HTMLInputElement).checked).toBe(true)
      expect(within(panel).getByRole('button', { name: 'Sign and change vote' })).toBeTruthy()
    })

    it('shows the current vote and lets the user change it, not re-send it', async () => {
      const wallet = installWallet()
      stubGov(fakeGov({ votes: [vote({ voter: OTHER, option: 'no' }), vote({ voter: WALLET.toLowerCase(), option: 'yes', height: 6 })] }), paced())
      signIn(WALLET)
      renderScreen(<ProposalScreen />, '/governance/1')
      const panel = await screen.findByRole('region', { name: 'Your vote' })
      await waitFor(() => expect(within(panel).getByTestId('own-vote').textContent).toBe('Your current vote: Yes (block 6). You can change it while voting is open.'))
      expect((within(panel).getByRole('radio', { name: 'Yes' }) as HTMLInputElement).checked).toBe(true)
      fireEvent.click(within(panel).getByRole('button', { name: 'Sign and change vote' }))
      expect(within(panel).getByRole('alert').textContent).toBe('Your vote is already Yes.')
      fireEvent.click(within(panel).getByRole('radio', { name: 'Abstain' }))
      fireEvent.click(within(panel).getByRole('button', { name: 'Sign and change vote' }))
      await waitFor(() => expect(wallet.signed()).toHaveLength(1))
      expect(wallet.signed()[0].message.option).toBe('abstain')
    })

    it('says so when the user had no stake at the snapshot, and offers no vote', async () => {
      stubGov(fakeGov({ power: (address, proposal) => ({ address, stake: 0, reputation: 0, multiplierBps: 10_000, power: 0, proposal }) }), paced())
      signIn(WALLET)
      renderScreen(<ProposalScreen />, '/governance/1')
      const panel = await screen.findByRole('region', { name: 'Your vote' })
      await waitFor(() => expect(within(panel).getByTestId('vote-power').textContent).toBe('Your voting power: 0 (stake 0 DFG × multiplier 1.0×)'))
      expect(within(panel).getByText('You had nothing staked when this proposal was created, so you have no voting power on it.')).toBeTruthy()
      expect(within(panel).queryByRole('radio')).toBeNull()
    })
  })
})
