import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { json, preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { callsTo, fakeChain, HASH, installWallet, OTHER, PARAMS, SIGNATURE, stubChain, tx, WALLET } from '@/test/chain'
import { schemaFixture } from '@/test/schemaFixture'
import WalletScreen from './WalletScreen'

preloadNamespaces('wallet')

const renderWallet = () => renderScreen(<WalletScreen />, '/wallet')

/** Signs in, renders /wallet over chain and waits for the balances. */
async function openWallet(chain = fakeChain()) {
  const fetchMock = stubChain(chain)
  signIn(WALLET)
  renderWallet()
  await screen.findByText('1,234.5 DFG')
  return fetchMock
}

const fill = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
const errorOf = (label: string | RegExp) => {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby')?.split(' ') ?? []
  return ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field-error'))?.textContent ?? null
}

describe('WalletScreen', () => {
  it('asks a signed-out visitor to sign in and reads nothing from the chain', async () => {
    const fetchMock = stubChain(fakeChain())
    renderWallet()
    const notice = await screen.findByRole('status')
    expect(notice.textContent).toContain('Sign in with your wallet to see your balance')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("shows balance, staked and unbonding with the token's decimals and symbol, and the transactions", async () => {
    await openWallet()
    expect(screen.getByTestId('account-balance').textContent).toBe('1,234.5 DFG')
    expect(screen.getByTestId('account-staked').textContent).toBe('2 DFG')
    expect(screen.getByTestId('account-unbonding').textContent).toBe('0 DFG')
    expect(screen.getByTestId('account-balance').className).toContain('num')
    const table = await screen.findByRole('table', { name: 'Transactions' })
    const row = within(table).getAllByRole('row')[1]
    expect(within(row).getByText('Transfer')).toBeTruthy()
    expect(within(row).getByText('2.5 DFG').className).toContain('num')
    expect(within(row).getByRole('link', { name: /^AAAAAAAA/ }).getAttribute('href')).toBe(`/explorer?tx=${HASH(1)}`)
    expect(within(row).getByRole('link', { name: '7' }).getAttribute('href')).toBe('/explorer?block=7')
  })

  it('keeps amounts beyond 2^53 micro-units exact', async () => {
    const chain = fakeChain()
    chain.accounts[WALLET.toLowerCase()] = { ...chain.accounts[WALLET.toLowerCase()], balance: '18446744073709551615' }
    stubChain(chain)
    signIn(WALLET)
    renderWallet()
    expect(await screen.findByText('18,446,744,073,709.551615 DFG')).toBeTruthy()
  })

  it('shows the empty state when the account has no transactions', async () => {
    await openWallet(fakeChain({ txs: [] }))
    expect(await screen.findByText('No transactions yet')).toBeTruthy()
  })

  it('pages through transactions', async () => {
    const txs = Array.from({ length: 25 }, (_, i) => tx({ hash: HASH(100 + i), amount: (i + 1) * 1_000_000 }))
    const fetchMock = await openWallet(fakeChain({ txs }))
    expect(await screen.findByText('Page 1 of 2')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Page 2 of 2')).toBeTruthy()
    expect(callsTo(fetchMock, `/api/v1/accounts/${WALLET}/txs`).map((u) => u.searchParams.get('page'))).toContain('2')
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Transactions' })).getAllByRole('row')).toHaveLength(6))
  })

  describe('send', () => {
    it('checks the address, the amount and the balance before anything is signed', async () => {
      const wallet = installWallet()
      const fetchMock = await openWallet()
      const send = screen.getByRole('button', { name: 'Sign and send' })

      fireEvent.click(send)
      expect(errorOf('Recipient address')).toBe("Enter the recipient's address.")
      expect(errorOf('Amount in DFG')).toBe('Enter an amount.')
      expect(document.activeElement).toBe(screen.getByLabelText('Recipient address'))

      fill('Recipient address', '0x1234')
      fill('Amount in DFG', '-3')
      fireEvent.click(send)
      expect(errorOf('Recipient address')).toBe('An address is 0x followed by 40 hex digits.')
      expect(errorOf('Amount in DFG')).toBe('The amount must be more than zero.')
      expect(screen.getByLabelText('Recipient address').getAttribute('aria-invalid')).toBe('true')

      fill('Recipient address', `0x${'0'.repeat(40)}`)
      fill('Amount in DFG', '1.0000001')
      fireEvent.click(send)
      expect(errorOf('Recipient address')).toBe('The zero address cannot receive tokens.')
      expect(errorOf('Amount in DFG')).toBe('DFG has at most 6 decimal places.')

      fill('Recipient address', OTHER)
      fill('Amount in DFG', '1234.500001')
      fireEvent.click(send)
      expect(errorOf('Recipient address')).toBeNull()
      expect(errorOf('Amount in DFG')).toBe('This is more than your balance of 1,234.5 DFG.')

      fill('Amount in DFG', '1,5')
      fireEvent.click(send)
      expect(errorOf('Amount in DFG')).toBe('Enter a number such as 12 or 0.5, without thousands separators.')

      expect(wallet.requests).toEqual([])
      expect(callsTo(fetchMock, '/api/v1/chain/txs', 'POST')).toEqual([])
    })

    it('refuses a mixed-case address whose checksum does not match', async () => {
      const wallet = installWallet()
      await openWallet()
      fill('Recipient address', OTHER.replace('fB', 'Fb'))
      fill('Amount in DFG', '1')
      fireEvent.click(screen.getByRole('button', { name: 'Sign and send' }))
      await waitFor(() => expect(errorOf('Recipient address')).toMatch(/do not match its checksum/))
      expect(wallet.requests).toEqual([])
    })

    it("signs Transfer typed data with the chain's domain, types and message, posts it and refetches", async () => {
      const wallet = installWallet()
      const posted: unknown[] = []
      const chain = fakeChain({
        relay: (body) => {
          posted.push(body)
          return schemaFixture('chain.Result', { hash: HASH(99), height: 8 })
        },
      })
      const fetchMock = await openWallet(chain)
      const accountReads = callsTo(fetchMock, `/api/v1/accounts/${WALLET}`).length

      fill('Recipient address', OTHER.toLowerCase())
      fill('Amount in DFG', '1.5')
      fireEvent.click(screen.getByRole('button', { name: 'Sign and send' }))

      const done = await screen.findByText('Committed in block 8.')
      // The relay gets EIP-55 addresses; viem hands the wallet lower case, which hashes the same.
      const message = { from: WALLET, to: OTHER, amount: '1500000', nonce: '3' }
      expect(wallet.signed()).toEqual([
        {
          domain: PARAMS.eip712Domain,
          types: PARAMS.types,
          primaryType: 'Transfer',
          message: { ...message, from: WALLET.toLowerCase(), to: OTHER.toLowerCase() },
        },
      ])
      expect(wallet.requests.find((r) => r.method === 'eth_signTypedData_v4')?.params).toEqual([WALLET, expect.any(String)])
      expect(posted).toEqual([{ type: 'Transfer', message, signature: SIGNATURE }])
      const link = within(done.closest('[role="status"]') as HTMLElement).getByRole('link')
      expect(link.getAttribute('href')).toBe(`/explorer?tx=${HASH(99)}`)
      // The form is cleared and the balances and list are read again.
      expect((screen.getByLabelText('Amount in DFG') as HTMLInputElement).value).toBe('')
      await waitFor(() => expect(callsTo(fetchMock, `/api/v1/accounts/${WALLET}`).length).toBeGreaterThan(accountReads + 1))
    })

    it('reads the nonce fresh before signing', async () => {
      const wallet = installWallet()
      const chain = fakeChain()
      await openWallet(chain)
      chain.accounts[WALLET.toLowerCase()].nonce = 11
      fill('Recipient address', OTHER)
      fill('Amount in DFG', '1')
      fireEvent.click(screen.getByRole('button', { name: 'Sign and send' }))
      await screen.findByText('Committed in block 8.')
      expect(wallet.signed()[0].message.nonce).toBe('11')
    })

    it('says so when the user declines in the wallet, and posts nothing', async () => {
      installWallet({ reject: true })
      const fetchMock = await openWallet()
      fill('Recipient address', OTHER)
      fill('Amount in DFG', '1')
      fireEvent.click(screen.getByRole('button', { name: 'Sign and send' }))
      const alert = await screen.findByRole('alert')
      expect(alert.textContent).toBe('You declined the signature in your wallet. Nothing was sent.')
      expect(callsTo(fetchMock, '/api/v1/chain/txs', 'POST')).toEqual([])
      expect((screen.getByLabelText('Amount in DFG') as HTMLInputElement).value).toBe('1')
    })

    it("shows the server's rejection message as it is", async () => {
      installWallet()
      await openWallet(
        fakeChain({ relay: () => json({ message: 'the nonce is 3 but the account is at 4: sign again with the current nonce', code: 'bad_nonce' }, 400) }),
      )
      fill('Recipient address', OTHER)
      fill('Amount in DFG', '1')
      fireEvent.click(screen.getByRole('button', { name: 'Sign and send' }))
      const alert = await screen.findByRole('alert')
      expect(within(alert).getByText('the nonce is 3 but the account is at 4: sign again with the current nonce')).toBeTruthy()
      expect(within(alert).getByText('Code: bad_nonce')).toBeTruthy()
    })

    it('explains a missing wallet', async () => {
      await openWallet()
      fill('Recipient address', OTHER)
      fill('Amount in DFG', '1')
      fireEvent.click(screen.getByRole('button', { name: 'Sign and send' }))
      const alert = await screen.findByRole('alert')
      expect(alert.textContent).toMatch(/No wallet was found in this browser/)
    })
  })

  it("tip: checks the target with the chain's rules, then signs Tip with it", async () => {
    const wallet = installWallet()
    await openWallet()
    fireEvent.click(screen.getByRole('tab', { name: 'Tip' }))
    fill('Recipient address', OTHER)
    fill('Amount in DFG', '0.25')
    fill('What the tip thanks', 'issue:alice/x#03')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and tip' }))
    expect(errorOf('What the tip thanks')).toBe('"03" must be a positive whole number without leading zeros.')
    fill('What the tip thanks', 'team:core')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and tip' }))
    expect(errorOf('What the tip thanks')).toBe('"team" is not a kind of target: use user, repo, issue or pr.')
    expect(wallet.requests).toEqual([])

    fill('What the tip thanks', 'issue:alice/x#3')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and tip' }))
    await screen.findByText('Committed in block 8.')
    const [signed] = wallet.signed()
    expect(signed.primaryType).toBe('Tip')
    expect(Object.entries(signed.message)).toEqual([
      ['from', WALLET.toLowerCase()],
      ['to', OTHER.toLowerCase()],
      ['amount', '250000'],
      ['target', 'issue:alice/x#3'],
      ['nonce', '3'],
    ])
  })

  it("a tip link from a user's page opens the tip form filled in", async () => {
    stubChain(fakeChain())
    signIn(WALLET)
    renderScreen(<WalletScreen />, `/wallet?tip=${encodeURIComponent('user:grace')}&to=${OTHER}`)
    await screen.findByText('1,234.5 DFG')
    expect(screen.getByRole('tab', { name: 'Tip' }).getAttribute('aria-selected')).toBe('true')
    expect((screen.getByLabelText('What the tip thanks') as HTMLInputElement).value).toBe('user:grace')
    expect((screen.getByLabelText('Recipient address') as HTMLInputElement).value).toBe(OTHER)
  })

  it('stake signs Stake with only from, amount and nonce', async () => {
    const wallet = installWallet()
    await openWallet()
    fireEvent.click(screen.getByRole('tab', { name: 'Stake' }))
    expect(screen.queryByLabelText('Recipient address')).toBeNull()
    fill('Amount in DFG', '100')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and stake' }))
    await screen.findByText('Committed in block 8.')
    expect(wallet.signed()[0]).toMatchObject({ primaryType: 'Stake', message: { from: WALLET.toLowerCase(), amount: '100000000', nonce: '3' } })
  })

  it('unstake is capped by the stake, fills the maximum, and says when the tokens return', async () => {
    const wallet = installWallet()
    await openWallet(fakeChain({ params: { ...PARAMS, unbondingBlocks: 100 } }))
    fireEvent.click(screen.getByRole('tab', { name: 'Unstake' }))
    expect(screen.getByText('The unbonding period is 100 blocks.')).toBeTruthy()
    expect(screen.getByText('Staked: 2 DFG')).toBeTruthy()
    fill('Amount in DFG', '3')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and unstake' }))
    expect(errorOf('Amount in DFG')).toBe('This is more than your stake of 2 DFG.')

    fireEvent.click(screen.getByRole('button', { name: 'Max' }))
    expect((screen.getByLabelText('Amount in DFG') as HTMLInputElement).value).toBe('2')
    fireEvent.click(screen.getByRole('button', { name: 'Sign and unstake' }))
    expect(await screen.findByText('The tokens return to your balance at block 108.')).toBeTruthy()
    expect(wallet.signed()[0]).toMatchObject({ primaryType: 'Unstake', message: { amount: '2000000' } })
  })

  it('receive shows the address, draws its QR code and copies it', async () => {
    const writeText = vi.fn(async () => {})
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    await openWallet()
    fireEvent.click(screen.getByRole('tab', { name: 'Receive' }))
    expect((screen.getByLabelText('Your address') as HTMLInputElement).value).toBe(WALLET)
    const qr = await screen.findByRole('img', { name: `QR code of the address ${WALLET}` })
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d/)
    fireEvent.click(screen.getByRole('button', { name: 'Copy address' }))
    expect(await screen.findByText('The address is copied.')).toBeTruthy()
    expect(writeText).toHaveBeenCalledWith(WALLET)
  })

  it('the action tabs are reachable by keyboard', async () => {
    await openWallet()
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['Send', 'Receive', 'Tip', 'Stake', 'Unstake'])
    fireEvent.keyDown(tabs[0], { key: 'End' })
    expect(screen.getByRole('tab', { name: 'Unstake' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('button', { name: 'Sign and unstake' })).toBeTruthy()
  })
})
