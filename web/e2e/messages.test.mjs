// Direct messages in the browser against the real node: two wallets sign in
// (SIWE), one writes to the other by username from /messages, the
// conversation opens with the Markdown rendered; the other sees the unread
// badge, opens the conversation (which reads it) and replies, and the reply
// appears on the first page by itself (the open conversation polls).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { expectHidden, expectVisible, openPage, useNodeAndBrowser, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

const env = useNodeAndBrowser()

const defaultName = (address) => `user-${address.slice(2, 22).toLowerCase()}`

/** A fresh context with its own wallet, signed in. */
async function signedIn(t) {
  const { page } = await openPage(t, env.browser, env.node.url)
  const wallet = headlessWallet(generatePrivateKey())
  await wallet.install(page)
  await page.goto('/about')
  await waitForShell(page)
  const header = page.locator('header')
  await header.getByRole('button', { name: 'Login', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Sign in with your wallet' })
  await dialog.getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  await expectHidden(dialog)
  const name = defaultName(wallet.address)
  await expectVisible(header.getByRole('link', { name, exact: true }))
  return { page, name }
}

describe('direct messages', () => {
  test('write, read with an unread badge, and a reply that arrives live', TIMEOUT, async (t) => {
    const ada = await signedIn(t)
    const bo = await signedIn(t)

    await ada.page.goto('/messages')
    await expectVisible(ada.page.getByText('Both of you need to have signed in on this node', { exact: false }))
    await ada.page.getByRole('textbox', { name: 'To (username)' }).fill(bo.name)
    await ada.page.getByRole('textbox', { name: 'Message' }).fill('Hello **there**')
    await ada.page.getByRole('button', { name: 'Send', exact: true }).click()
    await ada.page.waitForURL(/\/messages\/\d+$/)
    await expectVisible(ada.page.getByRole('heading', { name: `Conversation with ${bo.name}` }))
    await expectVisible(ada.page.locator('.message-thread strong', { hasText: 'there' }))

    await bo.page.goto('/messages')
    await expectVisible(bo.page.locator('header').getByRole('link', { name: 'Messages: 1 unread' }))
    const row = bo.page.getByRole('link', { name: `${ada.name}, unread messages: 1` })
    await expectVisible(row)
    await row.click()
    await expectVisible(bo.page.getByRole('heading', { name: `Conversation with ${ada.name}` }))
    await bo.page.getByRole('textbox', { name: 'Reply' }).fill('Hi ada, got it')
    await bo.page.getByRole('textbox', { name: 'Reply' }).press('Control+Enter')
    await expectVisible(bo.page.locator('.message-thread', { hasText: 'Hi ada, got it' }))

    // ada's open conversation polls: the reply shows without a reload.
    await expectVisible(ada.page.locator('.message-thread', { hasText: 'Hi ada, got it' }), 15_000)
    assert.equal(new URL(ada.page.url()).pathname.startsWith('/messages/'), true)
  })
})
