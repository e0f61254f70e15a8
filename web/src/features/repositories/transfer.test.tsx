import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { nav } from '@/lib/forge/nav'
import { json, preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { repoFixture, stubApi } from '@/test/forge'
import { TransferRepository } from '@/features/orgs'
import { TransferBanner } from './TransferBanner'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('repositories', 'orgs')

let go: MockInstance<(url: string) => void>
beforeEach(() => {
  go = vi.spyOn(nav, 'go').mockImplementation(() => {})
})
afterEach(() => go.mockRestore())

const BOBS = '/api/v1/repos/bob/engine'
// bob offers his engine to ada, the signed-in user of the tests.
const offeredToAda = repoFixture({
  owner: schemaFixture('ForgeUser', { id: 2, login: 'bob' }),
  full_name: 'bob/engine',
  repo_transfer: schemaFixture('RepoTransfer', { doer: schemaFixture('ForgeUser', { id: 2, login: 'bob' }), recipient: schemaFixture('ForgeUser', { id: 1, login: 'ada' }) }),
})

describe('TransferBanner', () => {
  it('lets the recipient accept, and follows the repository to its new home', async () => {
    const api = stubApi({ [`POST ${BOBS}/transfer/accept`]: repoFixture({ owner: schemaFixture('ForgeUser', { id: 1, login: 'ada' }) }) })
    signIn()
    renderScreen(<TransferBanner repo={offeredToAda} />, '/bob/engine')
    expect(screen.getByText('bob wants to transfer this repository to ada.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Accept transfer' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ada/engine'))
    expect(api.sent('POST', `${BOBS}/transfer/accept`)).toHaveLength(1)
  })

  it('lets the recipient reject, and says why it failed when it does', async () => {
    const api = stubApi({ [`POST ${BOBS}/transfer/reject`]: () => json({ message: 'this node may not act for you', code: 'forbidden' }, 403) })
    signIn()
    renderScreen(<TransferBanner repo={offeredToAda} />, '/bob/engine')
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }))
    expect(await screen.findByText('this node may not act for you')).toBeTruthy()
    expect(api.sent('POST', `${BOBS}/transfer/reject`)).toHaveLength(1)
    expect(go).not.toHaveBeenCalled()
  })

  it('shows the owner the offer waiting, with Cancel', async () => {
    const api = stubApi({ [`POST /api/v1/repos/ada/engine/transfer/reject`]: repoFixture() })
    const mine = repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }), repo_transfer: schemaFixture('RepoTransfer', { doer: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), recipient: schemaFixture('ForgeUser', { id: 3, login: 'carol' }) }) })
    signIn()
    renderScreen(<TransferBanner repo={mine} />, '/ada/engine')
    expect(screen.getByText('Transfer pending to carol: it stays here until they accept it.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Accept transfer' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Cancel transfer' }))
    await waitFor(() => expect(api.sent('POST', '/api/v1/repos/ada/engine/transfer/reject')).toHaveLength(1))
  })

  it('shows nothing to anyone else, or when nothing is pending', () => {
    signIn()
    const { container } = renderScreen(
      <>
        <TransferBanner repo={{ ...offeredToAda, repo_transfer: { ...offeredToAda.repo_transfer!, recipient: schemaFixture('ForgeUser', { id: 3, login: 'carol' }) } }} />
        <TransferBanner repo={repoFixture()} />
      </>,
      '/bob/engine',
    )
    expect(container.textContent).toBe('')
  })
})

describe('TransferRepository', () => {
  it('says the transfer is pending when the answer is an offer, and stays on the page', async () => {
    const api = stubApi({
      'POST /api/v1/repos/ada/engine/transfer': repoFixture({ repo_transfer: schemaFixture('RepoTransfer', { doer: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), recipient: schemaFixture('ForgeUser', { id: 3, login: 'carol' }) }) }),
    })
    signIn()
    renderScreen(<TransferRepository repo={repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) })} />, '/ada/engine/settings')
    fireEvent.change(screen.getByLabelText('New owner (user or organization)'), { target: { value: 'carol' } })
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }))
    expect(await screen.findByText('Transfer offered to carol: the repository stays here until they accept it.')).toBeTruthy()
    expect(api.sent('POST', '/api/v1/repos/ada/engine/transfer')[0].body).toEqual({ new_owner: 'carol' })
    expect(go).not.toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: 'Transfer' })).toBeNull()
  })

  it('follows a transfer done at once to the new home', async () => {
    stubApi({ 'POST /api/v1/repos/ada/engine/transfer': repoFixture({ owner: schemaFixture('ForgeUser', { id: 9, login: 'acme' }) }) })
    signIn()
    renderScreen(<TransferRepository repo={repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) })} />, '/ada/engine/settings')
    fireEvent.change(screen.getByLabelText('New owner (user or organization)'), { target: { value: 'acme' } })
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }))
    await waitFor(() => expect(go).toHaveBeenCalledWith('/acme/engine'))
  })

  it('shows an offer already waiting instead of the form', () => {
    signIn()
    const waiting = repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }), repo_transfer: schemaFixture('RepoTransfer', { doer: schemaFixture('ForgeUser', { id: 1, login: 'ada' }), recipient: schemaFixture('ForgeUser', { id: 3, login: 'carol' }) }) })
    renderScreen(<TransferRepository repo={waiting} />, '/ada/engine/settings')
    expect(screen.getByText(/A transfer to carol is waiting for their answer/)).toBeTruthy()
    expect(screen.queryByLabelText('New owner (user or organization)')).toBeNull()
  })
})
