// Own keys in the browser (issue 22): sign-in asks the wallet twice, the
// second time for the Delegate that lets this node post for the user; the
// records the node signs say so; revoking the node in settings makes the
// next write ask the user to sign in again, which renews it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { expectVisible, openPage, useNodeAndBrowser, waitForShell, waitDelegated, apiAs } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const env = useNodeAndBrowser({ emptyBlocks: '300ms' })

const api = apiAs

// typedPrimaryTypes lists the EIP-712 types the wallet was asked to sign.
const typedPrimaryTypes = (wallet) =>
  wallet.requests.filter((r) => r.method === 'eth_signTypedData_v4').map((r) => JSON.parse(r.params[1]).primaryType)

describe('own keys', () => {
  test('a second signature at sign-in, records that say who signed, revoke in settings, sign in again', { timeout: 240_000 }, async (t) => {
    const { page } = await openPage(t, env.browser, env.node.url, { viewport: { width: 1280, height: 900 } })
    const wallet = headlessWallet(generatePrivateKey())
    await wallet.install(page)
    await page.goto('/about')
    await waitForShell(page)
    await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
    await waitDelegated(page)
    assert.deepEqual(typedPrimaryTypes(wallet), ['Delegate'])

    // The node signs the user's issue under that delegation, and says so.
    const login = (await api(page, 'GET', '/user')).login
    await api(page, 'POST', '/user/repos', { name: 'keys', auto_init: true }, 201)
    const issue = await api(page, 'POST', `/repos/${login}/keys/issues`, { title: 'Who signed this?' }, 201)
    assert.match(issue.signer, /^0x[0-9a-fA-F]{40}$/)
    assert.equal(issue.delegation, issue.signer)
    await page.goto(`/${login}/keys/issues/${issue.number}`)
    await waitForShell(page)
    await expectVisible(page.getByText(/^Signed via node /).first())

    // A pull request says the same.
    await api(page, 'POST', `/repos/${login}/keys/contents/notes.md`, { content: btoa('notes\n'), message: 'Add notes', new_branch: 'notes' }, 201)
    const pull = await api(page, 'POST', `/repos/${login}/keys/pulls`, { head: 'notes', base: 'main', title: 'Notes' }, 201)
    assert.equal(pull.delegation, issue.delegation)
    await page.goto(`/${login}/keys/pulls/${pull.number}`)
    await waitForShell(page)
    await expectVisible(page.getByText(/^Signed via node /).first())

    // The wallet lists the user's own forge actions, though the node signed them.
    await page.goto('/wallet')
    await waitForShell(page)
    const txs = page.getByRole('table', { name: 'Transactions' })
    await expectVisible(txs.getByRole('row').filter({ hasText: 'Forge action issue.create' }), 30_000)
    await expectVisible(txs.getByRole('row').filter({ hasText: 'Forge action pr.create' }))
    await expectVisible(txs.getByRole('row').filter({ hasText: 'Forge action repo.create' }))
    await expectVisible(txs.getByRole('row').filter({ hasText: 'Delegation' }))

    // A transfer is never relayed: under the delegation it is refused, and
    // from the settings page the wallet signs it.
    await api(page, 'POST', '/orgs', { username: `${login}-org` }, 201)
    const relayed = await api(page, 'POST', `/repos/${login}/keys/transfer`, { new_owner: `${login}-org` }, 403)
    assert.equal(relayed.code, 'wallet_signature_required')
    await page.goto(`/${login}/keys/settings`)
    await waitForShell(page)
    await page.getByLabel('New owner (user or organization)').fill(`${login}-org`)
    await page.getByRole('button', { name: 'Transfer', exact: true }).click()
    await page.waitForURL(new RegExp(`/${login}-org/keys$`), { timeout: 30_000 })
    assert.deepEqual(typedPrimaryTypes(wallet), ['Delegate', 'Forge'])
    assert.equal((await api(page, 'GET', `/repos/${login}-org/keys`)).owner.login, `${login}-org`)

    // Settings list the node; revoking it takes the wallet's signature.
    await page.goto('/settings?tab=nodes')
    await waitForShell(page)
    const list = page.getByRole('list', { name: 'Authorized nodes' })
    await expectVisible(list.getByText('This node'))
    await list.getByRole('button', { name: /^Revoke / }).click()
    await list.getByRole('group', { name: /^Confirm revoking/ }).getByRole('button', { name: 'Revoke' }).click()
    await expectVisible(page.getByText(/You have not authorized any node yet/), 30_000)
    assert.deepEqual(typedPrimaryTypes(wallet), ['Delegate', 'Forge', 'Undelegate'])

    // The next write is refused, and the app asks to sign in again.
    const refused = await api(page, 'POST', `/repos/${login}-org/keys/issues`, { title: 'Not any more' }, 401)
    assert.equal(refused.code, 'not_delegated')
    await page.goto(`/${login}-org/keys/issues/${issue.number}`)
    await waitForShell(page)
    await page.getByRole('textbox', { name: /comment/i }).first().fill('Once more, please')
    await page.getByRole('button', { name: /^Comment$/ }).first().click()
    const again = page.getByRole('button', { name: 'Sign in again' }).first()
    await expectVisible(again, 30_000)
    await again.click()
    // Signing in again is the same sign-in: the wallet is chosen, then both prompts.
    await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
    await waitDelegated(page)
    assert.deepEqual(typedPrimaryTypes(wallet), ['Delegate', 'Forge', 'Undelegate', 'Delegate'])
    await api(page, 'POST', `/repos/${login}-org/keys/issues`, { title: 'Renewed' }, 201)
  })
})
