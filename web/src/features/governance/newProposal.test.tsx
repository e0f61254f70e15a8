import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { callsTo, fakeChain, HASH, installWallet, SIGNATURE } from '@/test/chain'
import { schemaFixture } from '@/test/schemaFixture'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import NewProposalScreen from './NewProposalScreen'
import { fakeGov, GOV_PARAMS, OTHER, stubGov, WALLET } from './testing'

preloadNamespaces('governance', 'issues', 'wallet', 'grants')

let go: MockInstance<(url: string) => void>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
  return () => go.mockRestore()
})

const fill = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
const description = () => screen.getByRole('textbox', { name: 'Description' })
const errorOf = (el: HTMLElement) => {
  const ids = el.getAttribute('aria-describedby')?.split(' ') ?? []
  return ids.map((id) => document.getElementById(id)).find((e) => e?.classList.contains('field-error'))?.textContent ?? null
}
const errorOfLabel = (label: string | RegExp) => errorOf(screen.getByLabelText(label))
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Sign and propose' }))

/** Signs in, renders the form over the fake node and waits for the requirements. */
async function openForm(chain = fakeChain({ params: GOV_PARAMS }), gov = fakeGov(), path = '/governance/new') {
  const fetchMock = stubGov(gov, chain)
  signIn(WALLET)
  renderScreen(<NewProposalScreen />, path)
  await waitFor(() => expect(screen.getByTestId('gov-your-stake').textContent).toBe('2 DFG'))
  return fetchMock
}

describe('NewProposalScreen', () => {
  it('asks a signed-out visitor to sign in and reads nothing', async () => {
    const fetchMock = stubGov()
    renderScreen(<NewProposalScreen />, '/governance/new')
    expect(await screen.findByText('Sign in with your wallet to create a proposal.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows the deposit and minimum stake from params.gov beside the user’s stake and balance', async () => {
    await openForm()
    const box = screen.getByRole('region', { name: 'What proposing takes' })
    expect(within(box).getByTestId('gov-deposit').textContent).toBe('1,000 DFG')
    expect(within(box).getByTestId('gov-min-stake').textContent).toBe('2 DFG')
    expect(within(box).getByTestId('gov-your-balance').textContent).toBe('1,234.5 DFG')
    expect(within(box).queryByText(/Proposing needs at least/)).toBeNull()
    expect(screen.getByText('Signing pays the deposit of 1,000 DFG from your balance.')).toBeTruthy()
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('text')
    expect([...(screen.getByLabelText('Type') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Text',
      'Parameter change',
      'Treasury spend',
      'Validator set change',
      'Community role',
      'Grant',
    ])
  })

  it('checks every field before anything is signed, with a message on each', async () => {
    const wallet = installWallet()
    const fetchMock = await openForm()

    submit()
    expect(errorOfLabel('Title')).toBe('Enter a title.')
    expect(screen.getByText('Describe the proposal: what it changes and why.')).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByLabelText('Title'))
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true')

    fill('Title', 'x'.repeat(201))
    fireEvent.change(description(), { target: { value: 'Pay for the docs.' } })
    fill('Type', 'spend')
    fill('Recipient address', '0x1234')
    fill('Amount in DFG', '1.0000001')
    submit()
    expect(errorOfLabel('Title')).toBe('The title can be at most 200 characters.')
    expect(screen.queryByText('Describe the proposal: what it changes and why.')).toBeNull()
    expect(errorOfLabel('Recipient address')).toBe('An address is 0x followed by 40 hex digits.')
    expect(errorOfLabel('Amount in DFG')).toBe('DFG has at most 6 decimal places.')
    expect(errorOfLabel('Reason')).toBe('Say what the payment is for.')

    fill('Title', 'Fund the docs')
    fill('Type', 'param')
    const param = await screen.findByLabelText('Parameter')
    submit()
    expect(errorOf(param)).toBe('Choose the parameter to change.')
    expect(errorOfLabel('New value')).toBe('Enter a value.')
    fill('Parameter', 'quorumBps')
    expect(screen.getByText(/More than a third must take part\. Current value: 3340\. Allowed: 1 to 10000\./)).toBeTruthy()
    expect(screen.getByText('In basis points: 10,000 is 100 % (or 1.0×).')).toBeTruthy()
    fill('New value', '20000')
    submit()
    expect(errorOfLabel('New value')).toBe('The value must be from 1 to 10000.')
    fill('New value', '04000')
    submit()
    expect(errorOfLabel('New value')).toBe('Enter a whole number, without signs, separators or leading zeros.')

    fill('Type', 'validator')
    fill('Validator public key', 'bm90IGEga2V5')
    fill('Validator power', '-1')
    submit()
    expect(errorOfLabel('Validator public key')).toBe('This is not a base64 ed25519 public key of 32 bytes.')
    expect(errorOfLabel('Validator power')).toBe('Enter a whole number, without signs, separators or leading zeros.')

    expect(wallet.requests).toEqual([])
    expect(callsTo(fetchMock, '/api/v1/chain/txs', 'POST')).toEqual([])
  })

  it('previews the Markdown description as the server renders it', async () => {
    await openForm()
    fireEvent.change(description(), { target: { value: 'Why **this** matters.' } })
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }))
    const strong = await screen.findByText('this')
    expect(strong.tagName).toBe('STRONG')
  })

  it('signs a Propose with the type, title, description, payload and the deposit, then opens the new proposal', async () => {
    const wallet = installWallet()
    const posted: unknown[] = []
    const chain = fakeChain({
      params: GOV_PARAMS,
      relay: (body) => {
        posted.push(body)
        return schemaFixture('chain.Result', { hash: HASH(99), height: 8, proposalId: 7 })
      },
    })
    await openForm(chain)
    fill('Type', 'spend')
    fill('Title', '  Fund the docs  ')
    fireEvent.change(description(), { target: { value: 'Pay **Grace** for the docs.' } })
    fill('Recipient address', OTHER.toLowerCase())
    fill('Amount in DFG', '1.5')
    fill('Reason', 'Docs rewrite')
    submit()

    await waitFor(() => expect(go).toHaveBeenCalledWith('/governance/7'))
    const payload = JSON.stringify({ to: OTHER, amount: '1500000', reason: 'Docs rewrite' })
    const [signed] = wallet.signed()
    expect(signed.primaryType).toBe('Propose')
    expect(Object.entries(signed.message)).toEqual([
      ['from', WALLET.toLowerCase()],
      ['proposalType', 'spend'],
      ['title', 'Fund the docs'],
      ['description', 'Pay **Grace** for the docs.'],
      ['payload', payload],
      ['deposit', '1000000000'],
      ['nonce', '3'],
    ])
    expect(posted).toEqual([
      {
        type: 'Propose',
        message: { from: WALLET, proposalType: 'spend', title: 'Fund the docs', description: 'Pay **Grace** for the docs.', payload, deposit: '1000000000', nonce: '3' },
        signature: SIGNATURE,
      },
    ])
  })

  it('opens on a grant with its template, checks the terms, and signs them as the grant payload', async () => {
    const wallet = installWallet()
    stubGov(fakeGov(), fakeChain({ params: GOV_PARAMS, relay: () => schemaFixture('chain.Result', { hash: HASH(98), height: 8, proposalId: 9 }) }))
    signIn(WALLET)
    renderScreen(<NewProposalScreen />, '/governance/new?type=grant')
    await waitFor(() => expect(screen.getByTestId('gov-your-stake').textContent).toBe('2 DFG'))
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('grant')
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Grant: ')
    expect((description() as HTMLTextAreaElement).value).toContain('## Deliverables')

    // Nothing is signed while the terms are incomplete; each field says why.
    fill('Title', 'Grant: translations')
    submit()
    expect(errorOfLabel('What is delivered')).toBe('Say what this milestone delivers.')
    expect(errorOfLabel('Reviewers')).toBe('Name from 1 to 15 reviewers.')
    await waitFor(() => expect(errorOfLabel('Expiry block')).toBe('Enter a block height: a whole number from 1 up.'))
    expect(document.activeElement).toBe(screen.getByLabelText('What is delivered'))
    expect(wallet.requests).toEqual([])

    fill('What is delivered', 'The guide in French')
    fill('Amount (DFG)', '2')
    fill('Recipient address', OTHER)
    fireEvent.click(screen.getByRole('button', { name: 'Add a milestone' }))
    expect(screen.getAllByLabelText('What is delivered')).toHaveLength(2)
    fireEvent.click(screen.getByRole('button', { name: 'Remove milestone 2' }))
    expect(screen.getAllByLabelText('What is delivered')).toHaveLength(1)
    fill('Reviewers', `${OTHER}, ${WALLET}`)
    fill('Expiry block', '5')
    submit()
    await waitFor(() => expect(errorOfLabel('Expiry block')).toBe('The expiry must be after the current block, 7.'))
    fill('Expiry block', '900')
    submit()

    await waitFor(() => expect(go).toHaveBeenCalledWith('/governance/9'))
    const [signed] = wallet.signed()
    expect(signed.message).toMatchObject({
      proposalType: 'grant',
      title: 'Grant: translations',
      payload: JSON.stringify({
        milestones: JSON.stringify([{ description: 'The guide in French', amount: '2000000', recipient: OTHER }]),
        reviewers: `${OTHER},${WALLET}`,
        expiry: '900',
      }),
    })
  })

  it('sends a text proposal with an empty payload, and goes to the list when the new proposal cannot be found', async () => {
    const wallet = installWallet()
    await openForm()
    fill('Title', 'Adopt a code of conduct')
    fireEvent.change(description(), { target: { value: 'As discussed.' } })
    submit()
    await waitFor(() => expect(go).toHaveBeenCalledWith('/governance'))
    expect(wallet.signed()[0].message).toMatchObject({ proposalType: 'text', payload: '{}' })
  })

  it('sends a parameter change as {name, value} with the value a decimal string', async () => {
    const wallet = installWallet()
    await openForm()
    fill('Type', 'param')
    await screen.findByLabelText('Parameter')
    fill('Parameter', 'quorumBps')
    fill('New value', '4000')
    fill('Title', 'Raise the quorum')
    fireEvent.change(description(), { target: { value: 'More turnout.' } })
    submit()
    await waitFor(() => expect(wallet.signed()).toHaveLength(1))
    expect(wallet.signed()[0].message.payload).toBe('{"name":"quorumBps","value":"4000"}')
  })

  it('refuses to sign when the stake is below the minimum, and says what is missing', async () => {
    const wallet = installWallet()
    const chain = fakeChain({ params: GOV_PARAMS })
    chain.accounts[WALLET.toLowerCase()].staked = 1_000_000
    stubGov(fakeGov(), chain)
    signIn(WALLET)
    renderScreen(<NewProposalScreen />, '/governance/new')
    expect(await screen.findByText(/Proposing needs at least 2 DFG staked; you have 1 DFG\./)).toBeTruthy()
    fill('Title', 'Adopt a code of conduct')
    fireEvent.change(description(), { target: { value: 'As discussed.' } })
    submit()
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Proposing needs at least 2 DFG staked; you have 1 DFG.')
    expect(within(alert).getByRole('link', { name: 'Open your wallet' }).getAttribute('href')).toBe('/wallet')
    expect(wallet.requests).toEqual([])
  })

  it('shows the chain’s refusal (insufficient_stake) and stays on the form', async () => {
    installWallet()
    await openForm(fakeChain({ params: GOV_PARAMS, relay: () => schemaFixture('chain.Result', { hash: HASH(98), height: 8, code: 12, log: 'insufficient_stake: stake 1 is below 2' }) }))
    fill('Title', 'Adopt a code of conduct')
    fireEvent.change(description(), { target: { value: 'As discussed.' } })
    submit()
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('The transaction was included in a block but failed: insufficient_stake: stake 1 is below 2')
    expect(go).not.toHaveBeenCalled()
  })

  it('opens prefilled from a role link and signs {account, role, action} with the checksummed account', async () => {
    const wallet = installWallet()
    await openForm(undefined, undefined, `/governance/new?type=role&role=ambassador&action=grant&account=${OTHER.toLowerCase()}`)
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('role')
    expect((screen.getByLabelText('Account') as HTMLInputElement).value).toBe(OTHER.toLowerCase())
    expect((screen.getByLabelText('Role') as HTMLSelectElement).value).toBe('ambassador')
    expect((screen.getByLabelText('Action') as HTMLSelectElement).value).toBe('grant')
    fill('Title', 'Make Grace an ambassador')
    fireEvent.change(description(), { target: { value: 'She runs the Lisbon meetup.' } })
    submit()
    await waitFor(() => expect(wallet.signed()).toHaveLength(1))
    expect(wallet.signed()[0].message).toMatchObject({
      proposalType: 'role',
      payload: JSON.stringify({ account: OTHER, role: 'ambassador', action: 'grant' }),
    })
  })

  it('checks a role proposal’s account before anything is signed', async () => {
    const wallet = installWallet()
    await openForm()
    fill('Type', 'role')
    fill('Title', 'Revoke a moderator')
    fireEvent.change(description(), { target: { value: 'Inactive for a year.' } })
    fill('Role', 'forum_moderator')
    fill('Action', 'revoke')
    submit()
    expect(errorOfLabel('Account')).toBe("Enter the account's address.")
    fill('Account', '0x0000000000000000000000000000000000000000')
    submit()
    expect(errorOfLabel('Account')).toBe('The zero address cannot hold a role.')
    fill('Account', 'grace')
    submit()
    expect(errorOfLabel('Account')).toBe('An address is 0x followed by 40 hex digits.')
    expect(wallet.requests).toEqual([])
  })
})
