// The forge path as a new user walks it, against the real node and git:
// sign in with a wallet, create a repository, clone it with git, push a
// branch, open a pull request, comment on a line, have a second account
// approve it, merge it, and see the merge in git and in the page.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { expectEventually, expectHidden, expectVisible, launchBrowser, openPage, startNetwork, waitForShell, TIMEOUT, waitDelegated } from './harness.mjs'
import { headlessWallet, TEST_WALLET_NAME } from './wallet.mjs'

// Two validators of one chain: everything is done on the first, and the
// second must show the same pull request, merged.
const env = { node: null, second: null, browser: null }
let network
before(async () => {
  network = await startNetwork(2)
  ;[env.node, env.second] = network.nodes
  env.browser = await launchBrowser()
})
after(async () => {
  await env.browser?.close().catch(() => {})
  await Promise.all(network?.nodes.map((n) => n.stop()) ?? [])
  if (network) rmSync(network.dir, { recursive: true, force: true })
})
const defaultName = (address) => `user-${address.slice(2, 22).toLowerCase()}`

/** A browser context signed in with a fresh wallet; returns the page, wallet and login. */
async function signedIn(t, from = '/explore') {
  const { page } = await openPage(t, env.browser, env.node.url)
  const wallet = headlessWallet(generatePrivateKey())
  await wallet.install(page)
  await page.goto(from)
  await waitForShell(page)
  await page.locator('header').getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: TEST_WALLET_NAME }).click()
  await waitDelegated(page)
  const login = defaultName(wallet.address)
  await expectVisible(page.locator('header').getByRole('link', { name: login, exact: true }))
  return { page, wallet, login }
}

/** A personal access token made in the browser session (cookie + CSRF), as settings would. */
function createToken(page, login) {
  return page.evaluate(async (user) => {
    const csrf = JSON.parse(localStorage.getItem('auth-storage')).state.csrfToken
    const res = await fetch(`/api/v1/users/${user}/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify({ name: 'e2e-git', scopes: ['write'] }),
    })
    return (await res.json()).sha1
  }, login)
}

const git = (cwd, ...args) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@example.org', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@example.org' },
  })

describe('forge', () => {
  test('create, clone, push a branch, open a pull request, review it from two accounts, merge it', TIMEOUT, async (t) => {
    const work = mkdtempSync(join(tmpdir(), 'dforge-e2e-git-'))
    t.after(() => rmSync(work, { recursive: true, force: true }))

    // 1. Alice creates a repository with a README.
    const alice = await signedIn(t, '/new')
    await alice.page.getByLabel('Repository name').fill('demo')
    await alice.page.getByLabel('Initialize with a README').check()
    await alice.page.getByRole('button', { name: 'Create repository' }).click()
    await alice.page.waitForURL((u) => u.pathname === `/${alice.login}/demo`)
    await waitForShell(alice.page)
    await expectVisible(alice.page.getByText('Clone over HTTP'))

    // 2. She clones it with git and pushes a branch, a token as the password.
    const token = await createToken(alice.page, alice.login)
    assert.match(token, /^[0-9a-f]{40}$/)
    const remote = new URL(`/${alice.login}/demo.git`, env.node.url)
    remote.username = alice.login
    remote.password = token
    git(work, 'clone', '--quiet', remote.href, 'demo')
    const repo = join(work, 'demo')
    git(repo, 'checkout', '--quiet', '-b', 'feature')
    writeFileSync(join(repo, 'NOTES.md'), 'First line\nSecond line\n')
    git(repo, 'add', 'NOTES.md')
    git(repo, 'commit', '--quiet', '-m', 'Add notes')
    git(repo, 'push', '--quiet', 'origin', 'feature')

    // 3. She opens a pull request from the branch.
    await alice.page.goto(`/${alice.login}/demo/pulls/new`)
    await waitForShell(alice.page)
    await alice.page.getByLabel('Compare branch (merge from)').selectOption('feature')
    await alice.page.getByLabel('Title').fill('Add notes')
    await alice.page.getByRole('button', { name: 'Create pull request' }).click()
    await alice.page.waitForURL((u) => u.pathname === `/${alice.login}/demo/pulls/1`)
    await waitForShell(alice.page)

    // 4. She comments on a line of the diff (her own PR: a comment review).
    await alice.page.getByRole('tab', { name: 'Files changed' }).click()
    await alice.page.getByRole('button', { name: 'Comment on new line 2 of NOTES.md' }).click()
    await alice.page.getByLabel('Comment on line 2 of NOTES.md').fill('Is a second line needed?')
    await alice.page.getByRole('button', { name: 'Add to review' }).click()
    await alice.page.getByRole('button', { name: 'Review changes' }).click()
    await expectVisible(alice.page.getByText('1 comment waits for this review.'))
    await alice.page.getByRole('button', { name: 'Submit review' }).click()
    await expectHidden(alice.page.getByRole('button', { name: 'Submit review' }))
    await alice.page.getByRole('tab', { name: 'Conversation' }).click()
    await expectVisible(alice.page.getByText(`${alice.login} reviewed`))
    await expectVisible(alice.page.getByText('Is a second line needed?'))

    // 5. Bob approves it from his own wallet.
    const bob = await signedIn(t, `/${alice.login}/demo/pulls/1`)
    await bob.page.getByRole('tab', { name: 'Files changed' }).click()
    await bob.page.getByRole('button', { name: 'Review changes' }).click()
    await bob.page.getByLabel('Summary').fill('Looks good.')
    await bob.page.getByLabel('Approve').check()
    await bob.page.getByRole('button', { name: 'Submit review' }).click()
    await expectHidden(bob.page.getByRole('button', { name: 'Submit review' }))
    await bob.page.getByRole('tab', { name: 'Conversation' }).click()
    await expectVisible(bob.page.getByText(`${bob.login} approved`))
    await expectVisible(bob.page.getByText("Only the repository's maintainers can merge."))

    // 6. Alice merges; git and the page agree.
    await alice.page.reload()
    await waitForShell(alice.page)
    await alice.page.getByRole('button', { name: 'Merge pull request' }).click()
    await expectVisible(alice.page.getByText('Merged', { exact: true }))
    git(repo, 'fetch', '--quiet', 'origin')
    const parents = git(repo, 'rev-list', '--parents', '-n', '1', 'origin/main').trim().split(' ')
    assert.equal(parents.length, 3, 'main is a merge commit with two parents')
    assert.equal(git(repo, 'show', 'origin/main:NOTES.md'), 'First line\nSecond line\n')
    const pr = await alice.page.evaluate(async (o) => (await fetch(`/api/v1/repos/${o}/demo/pulls/1`)).json(), alice.login)
    assert.equal(pr.merged, true)
    assert.equal(pr.merge_commit_sha, parents[0])

    // 7. The second node follows the same chain: the same PR, merged.
    const onSecond = async () => {
      const res = await fetch(`${env.second.url}/api/v1/repos/${alice.login}/demo/pulls/1`)
      return res.ok ? (await res.json()).merged : `HTTP ${res.status}`
    }
    await expectEventually(onSecond, true, { message: 'the second node shows the pull request merged' })
    const { page: elsewhere } = await openPage(t, env.browser, env.second.url)
    await elsewhere.goto(`/${alice.login}/demo/pulls/1`)
    await waitForShell(elsewhere)
    await expectVisible(elsewhere.getByText('Merged', { exact: true }))
  })
})
