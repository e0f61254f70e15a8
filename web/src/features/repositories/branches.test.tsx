import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { noContent, REPO, repoFixture, stubApi } from '@/test/forge'
import BranchesScreen from './BranchesScreen'
import RepoSettingsScreen from './RepoSettingsScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('repositories', 'branches', 'issues', 'wallet')

const writer = repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) })
const owned = repoFixture({ permissions: schemaFixture('Perm', { admin: true, push: true, pull: true }) })
const branches = [
  { name: 'main', commit: { id: 'a'.repeat(40), message: 'first' }, protected: true },
  { name: 'dev', commit: { id: 'b'.repeat(40), message: 'second' } },
]

describe('BranchesScreen writes', () => {
  it('creates a branch from the chosen one', async () => {
    const api = stubApi({ [`GET ${REPO}`]: writer, [`GET ${REPO}/branches`]: branches, [`POST ${REPO}/branches`]: { name: 'topic', commit: { id: 'b'.repeat(40), message: '' } } })
    signIn()
    renderScreen(<BranchesScreen />, '/ada/engine/branches')
    fireEvent.change(await screen.findByLabelText('Branch name'), { target: { value: 'topic' } })
    fireEvent.change(screen.getByLabelText('From'), { target: { value: 'dev' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create branch' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/branches`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/branches`)[0].body).toEqual({ new_branch_name: 'topic', old_ref_name: 'dev' })
  })

  it('deletes a branch only once confirmed, and offers nothing for the default one', async () => {
    const api = stubApi({ [`GET ${REPO}`]: writer, [`GET ${REPO}/branches`]: branches, [`DELETE ${REPO}/branches/dev`]: noContent() })
    signIn()
    renderScreen(<BranchesScreen />, '/ada/engine/branches')
    const deletes = await screen.findAllByRole('button', { name: 'Delete' })
    expect(deletes).toHaveLength(1)
    fireEvent.click(deletes[0])
    expect(api.sent('DELETE', `${REPO}/branches/dev`)).toHaveLength(0)
    const confirm = screen.getByRole('group', { name: 'Delete branch dev?' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(api.sent('DELETE', `${REPO}/branches/dev`)).toHaveLength(1))
  })

  it('renames a branch', async () => {
    const api = stubApi({ [`GET ${REPO}`]: writer, [`GET ${REPO}/branches`]: branches, [`PATCH ${REPO}/branches/dev`]: noContent() })
    signIn()
    renderScreen(<BranchesScreen />, '/ada/engine/branches')
    fireEvent.click(await screen.findByRole('button', { name: 'Rename' }))
    fireEvent.change(screen.getByLabelText('New name for dev'), { target: { value: 'develop' } })
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }))
    await waitFor(() => expect(api.sent('PATCH', `${REPO}/branches/dev`)).toHaveLength(1))
    expect(api.sent('PATCH', `${REPO}/branches/dev`)[0].body).toEqual({ name: 'develop' })
  })
})

describe('Branch protection settings', () => {
  it('lists rules and adds one', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: owned,
      [`GET ${REPO}/collaborators`]: [],
      [`GET ${REPO}/branch_protections`]: [
        { rule_name: 'main', branch_name: 'main', enable_push: false, enable_push_whitelist: false, push_whitelist_usernames: [], enable_status_check: true, status_check_contexts: ['ci'], required_approvals: 2 },
      ],
      [`POST ${REPO}/branch_protections`]: { rule_name: 'dev' },
    })
    signIn()
    renderScreen(<RepoSettingsScreen />, '/ada/engine/settings')
    expect(await screen.findByText(/required checks: ci/)).toBeTruthy()
    expect(screen.getByText(/required approvals: 2/)).toBeTruthy()
    const form = screen.getByRole('form', { name: 'Protect a branch' })
    fireEvent.change(within(form).getByLabelText('Branch name'), { target: { value: 'dev' } })
    fireEvent.change(within(form).getByLabelText('Required status checks'), { target: { value: 'ci, lint' } })
    fireEvent.change(within(form).getByLabelText('Required approvals'), { target: { value: '1' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/branch_protections`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/branch_protections`)[0].body).toEqual({
      rule_name: 'dev',
      enable_push: false,
      enable_push_whitelist: false,
      push_whitelist_usernames: [],
      enable_status_check: true,
      status_check_contexts: ['ci', 'lint'],
      required_approvals: 1,
    })
  })
})
