// The wallet against the real chain: a headless wallet backed by a real
// private key (viem) signs in with SIWE, claims a username, sends a
// transfer, stakes and unstakes, each an EIP-712 transaction signed in the
// wallet and committed by the node's CometBFT; the balances the page shows
// are then the chain's.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const KEY = generatePrivateKey()
const FUNDS = 1_000_000_000n // 1000 DFG in micro-units (6 decimals)
const env = useNodeAndBrowser({ alloc: { [privateKeyToAccount(KEY).address]: FUNDS } })
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address

const header = (page) => page.locator('header')

async function account(page, address) {
  return page.evaluate(async (a) => (await fetch(`/api/v1/accounts/${a}`)).json(), address)
}

/** A page with the funded wallet, signed in from /wallet (SIWE through the chooser). */
async function signedInWallet(t) {
  const { page } = await openPage(t, env.browser, env.node.url)
  const wallet = headlessWallet(KEY)
  await wallet.install(page)
  await page.goto('/wallet')
  await waitForShell(page)
  await header(page).getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectVisible(page.getByTestId('account-balance'))
  return { page, wallet }
}

/** Fills the open wallet form and signs; resolves when the page says the block committed. */
async function signAndCommit(page, tab, fields, submit) {
  await page.getByRole('tab', { name: tab, exact: true }).click()
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value)
  await page.getByRole('button', { name: submit }).click()
  await expectVisible(page.getByText(/^Committed in block \d+\.$/), 30_000)
}

describe('wallet', () => {
  test('signs in, claims a username, sends, stakes and unstakes; the page shows what the chain holds', TIMEOUT, async (t) => {
    // 1. Sign in with the wallet (SIWE).
    const { page, wallet } = await signedInWallet(t)
    const defaultName = `user-${wallet.address.slice(2, 22).toLowerCase()}`
    await expectVisible(header(page).getByRole('link', { name: defaultName, exact: true }))

    // 2. Claim a username: a ClaimUsername transaction signed in the wallet.
    const name = `w${wallet.address.slice(2, 10).toLowerCase()}`
    await page.goto('/settings?tab=account')
    await waitForShell(page)
    await page.getByLabel('New username').fill(name)
    await expectVisible(page.getByText(`${name} is available.`))
    await page.getByRole('button', { name: 'Change username' }).click()
    await expectVisible(page.getByText(`Your username is now ${name}.`))
    await expectVisible(header(page).getByRole('link', { name, exact: true }))

    // 3. Send, stake and unstake from the wallet page.
    await page.goto('/wallet')
    await waitForShell(page)
    await expectVisible(page.getByTestId('account-balance').getByText('1,000 DFG'))
    await signAndCommit(page, 'Send', { 'Recipient address': RECIPIENT, 'Amount in DFG': '12.5' }, 'Sign and send')
    await signAndCommit(page, 'Stake', { 'Amount in DFG': '100' }, 'Sign and stake')
    await signAndCommit(page, 'Unstake', { 'Amount in DFG': '40' }, 'Sign and unstake')
    const signed = wallet.requests.filter((r) => r.method === 'eth_signTypedData_v4').map((r) => JSON.parse(r.params[1]).primaryType)
    // Sign-in's second prompt (the node's delegation) is a transaction too, on a chain with own keys.
    const delegations = signed.filter((type) => type === 'Delegate').length
    assert.deepEqual(
      signed.filter((type) => type !== 'Delegate'),
      ['ClaimUsername', 'Transfer', 'Stake', 'Unstake'],
    )

    // 4. The chain's figures, and the page showing the same after a reload.
    const mine = await account(page, wallet.address)
    assert.deepEqual(
      { username: mine.username, balance: mine.balance, staked: mine.staked, unbonding: mine.unbonding, nonce: mine.nonce },
      { username: name, balance: 887_500_000, staked: 60_000_000, unbonding: 40_000_000, nonce: 4 + delegations },
    )
    assert.equal((await account(page, RECIPIENT)).balance, 12_500_000)
    await page.reload()
    await waitForShell(page)
    await expectVisible(page.getByTestId('account-balance').getByText('887.5 DFG'))
    await expectVisible(page.getByTestId('account-staked').getByText('60 DFG'))
    await expectVisible(page.getByTestId('account-unbonding').getByText('40 DFG'))
    // The history lists the four transactions.
    const history = await page.evaluate(async (a) => (await fetch(`/api/v1/accounts/${a}/txs`)).json(), wallet.address)
    assert.deepEqual(history.map((tx) => tx.type), ['Unstake', 'Stake', 'Transfer', 'ClaimUsername', 'Delegate'])
  })

  test('a signature declined in the wallet sends nothing and says so', TIMEOUT, async (t) => {
    const { page, wallet } = await signedInWallet(t)
    const before = await account(page, wallet.address)
    wallet.rejectNext = true
    await page.getByRole('tab', { name: 'Stake', exact: true }).click()
    await page.getByLabel('Amount in DFG', { exact: true }).fill('1')
    await page.getByRole('button', { name: 'Sign and stake' }).click()
    await expectVisible(page.getByText('You declined the signature in your wallet. Nothing was sent.'))
    assert.deepEqual(await account(page, wallet.address), before)
  })
})
