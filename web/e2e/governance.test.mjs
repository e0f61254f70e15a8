// Governance against the real chain: two headless wallets sign in and
// stake, one creates a parameter-change proposal, both vote from their own
// browser, and the proposal page shows it pass and then execute, after
// which the chain publishes the new parameter. Every step is an EIP-712
// transaction signed in the wallet and committed by the node.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const ALICE = generatePrivateKey()
const BOB = generatePrivateKey()
const FUNDS = 1_000_000_000n // 1000 DFG
const env = useNodeAndBrowser({
  alloc: { [privateKeyToAccount(ALICE).address]: FUNDS, [privateKeyToAccount(BOB).address]: FUNDS },
  // Short periods so the vote ends within the test (100 blocks: time to
  // watch the countdown and vote); an idle chain makes a block every 300 ms.
  params: { votingPeriodBlocks: 100, timelockBlocks: 15, proposalDeposit: 10_000_000, minProposerStake: 100_000_000 },
  emptyBlocks: '300ms',
})

/** A page signed in with key's wallet, on /wallet. */
async function signedIn(t, key) {
  const { page } = await openPage(t, env.browser, env.node.url)
  const wallet = headlessWallet(key)
  await wallet.install(page)
  await page.goto('/wallet')
  await waitForShell(page)
  await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectVisible(page.getByTestId('account-balance'))
  return { page, wallet }
}

async function stake(page, amount) {
  await page.getByRole('tab', { name: 'Stake', exact: true }).click()
  await page.getByLabel('Amount in DFG', { exact: true }).fill(amount)
  await page.getByRole('button', { name: 'Sign and stake' }).click()
  await expectVisible(page.getByText(/^Committed in block \d+\.$/), 30_000)
}

async function vote(page, option) {
  const form = page.getByRole('form', { name: 'Your vote' })
  await form.getByRole('radio', { name: option, exact: true }).check()
  await form.getByRole('button', { name: /^Sign and (vote|change vote)$/ }).click()
}

describe('governance', () => {
  test('stake, propose a parameter change, vote from two wallets, see it pass and execute', TIMEOUT, async (t) => {
    // 1. Both sign in and stake: alice 200 DFG, bob 300 DFG.
    const alice = await signedIn(t, ALICE)
    const bob = await signedIn(t, BOB)
    await stake(alice.page, '200')
    await stake(bob.page, '300')

    // 2. Alice proposes to lower the quorum to 40 %.
    const { page } = alice
    await page.goto('/governance')
    await waitForShell(page)
    await page.getByRole('link', { name: 'Create proposal' }).click()
    await expectVisible(page.getByRole('heading', { name: 'Create proposal', level: 1 }))
    await page.getByLabel('Type', { exact: true }).selectOption('param')
    await page.getByLabel('Title', { exact: true }).fill('Lower the quorum to 40 %')
    await page.getByRole('textbox', { name: 'Description' }).fill('Turnout has been **low**; 40 % is enough.')
    await page.getByLabel('Parameter', { exact: true }).selectOption('quorumBps')
    await page.getByLabel('New value', { exact: true }).fill('4000')
    await page.getByRole('button', { name: 'Sign and propose' }).click()
    await page.waitForURL(/\/governance\/1$/, { timeout: 30_000 })
    await expectVisible(page.getByRole('heading', { name: 'Lower the quorum to 40 %' }))
    await expectVisible(page.getByText('Active', { exact: true }).first())

    // The time left only counts down: across the page's polls, and across
    // a reload, which goes on from the estimate kept for the tab rather
    // than starting again from a raw average.
    const readings = []
    const read = async () => {
      const m = /\(about (\d+) (second|minute)s?\)/.exec((await page.getByTestId('countdown').textContent()) ?? '')
      if (m) readings.push(Number(m[1]) * (m[2] === 'minute' ? 60 : 1))
    }
    for (let i = 0; i < 6; i++) {
      await read()
      await page.waitForTimeout(400)
    }
    await page.reload()
    await waitForShell(page)
    await expectVisible(page.getByTestId('countdown'))
    for (let i = 0; i < 5; i++) {
      await read()
      await page.waitForTimeout(400)
    }
    assert.ok(readings.length >= 6, `the countdown showed a time (${readings})`)
    for (let i = 1; i < readings.length; i++) assert.ok(readings[i] <= readings[i - 1], `the time left only counts down: ${readings.join(', ')} seconds`)

    // 3. Both vote yes; each sees their power before signing.
    await expectVisible(page.getByText(/^Your voting power: 200/))
    await vote(page, 'Yes')
    await expectVisible(page.getByText('Your current vote:'), 30_000)
    await bob.page.goto('/governance/1')
    await waitForShell(bob.page)
    await expectVisible(bob.page.getByText(/^Your voting power: 300/))
    await vote(bob.page, 'Yes')
    await expectVisible(bob.page.getByText('Your current vote:'), 30_000)

    // 4. The page follows the chain: passed when voting ends, executed
    // after the timelock.
    await expectVisible(page.getByText('Passed', { exact: true }).first(), 60_000)
    await expectVisible(page.getByText('Executed', { exact: true }).first(), 60_000)
    const signed = alice.wallet.requests.filter((r) => r.method === 'eth_signTypedData_v4').map((r) => JSON.parse(r.params[1]).primaryType)
    // Sign-in's second prompt (the node's delegation) comes first on a chain with own keys.
    assert.deepEqual(
      signed.filter((type) => type !== 'Delegate'),
      ['Stake', 'Propose', 'Vote'],
    )

    // 5. The chain's record agrees: the tally and the new parameter.
    const proposal = await page.evaluate(async () => (await fetch('/api/v1/governance/proposals/1')).json())
    assert.equal(proposal.status, 'executed')
    assert.equal(proposal.tally.yes, 500_000_000)
    assert.equal(proposal.tally.total_power, 500_000_000)
    const params = await page.evaluate(async () => (await fetch('/api/v1/chain/params')).json())
    assert.equal(params.gov.quorumBps, 4000)
  })
})
