import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen, signIn } from '@/test/render'
import { noContent, REPO, repoFixture, stubApi } from '@/test/forge'
import TagsScreen from './TagsScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('repositories', 'tagwrites', 'issues', 'wallet')

const writer = repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) })
const reader = repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: false, pull: true }) })
const tags = [schemaFixture('Tag', { name: 'v1', id: 'a'.repeat(40), commit: { sha: 'a'.repeat(40), url: '', cid: '', created: '2026-01-01T00:00:00Z' } })]

describe('TagsScreen writes', () => {
  it('creates an annotated tag at the chosen target', async () => {
    const api = stubApi({ [`GET ${REPO}`]: writer, [`GET ${REPO}/tags`]: tags, [`POST ${REPO}/tags`]: tags[0] })
    signIn()
    renderScreen(<TagsScreen />, '/ada/engine/tags')
    fireEvent.change(await screen.findByLabelText('Tag name'), { target: { value: 'v2' } })
    fireEvent.change(screen.getByLabelText('At (branch, tag or commit)'), { target: { value: 'dev' } })
    fireEvent.change(screen.getByLabelText('Message (optional)'), { target: { value: 'Second' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create tag' }))
    await waitFor(() => expect(api.sent('POST', `${REPO}/tags`)).toHaveLength(1))
    expect(api.sent('POST', `${REPO}/tags`)[0].body).toEqual({ tag_name: 'v2', target: 'dev', message: 'Second' })
  })

  it('deletes a tag only once confirmed', async () => {
    const api = stubApi({ [`GET ${REPO}`]: writer, [`GET ${REPO}/tags`]: tags, [`DELETE ${REPO}/tags/v1`]: noContent() })
    signIn()
    renderScreen(<TagsScreen />, '/ada/engine/tags')
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    expect(api.sent('DELETE', `${REPO}/tags/v1`)).toHaveLength(0)
    const confirm = screen.getByRole('group', { name: 'Delete tag v1?' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(api.sent('DELETE', `${REPO}/tags/v1`)).toHaveLength(1))
  })

  it('offers no writes to a reader', async () => {
    stubApi({ [`GET ${REPO}`]: reader, [`GET ${REPO}/tags`]: tags })
    signIn()
    renderScreen(<TagsScreen />, '/ada/engine/tags')
    expect(await screen.findByText('v1')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull()
    expect(screen.queryByLabelText('Tag name')).toBeNull()
  })
})
