import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { REPO, repoFixture, stubApi, text } from '@/test/forge'
import type { Release } from './api'
import ReleasesScreen from './ReleasesScreen'
import { schemaFixture } from '@/test/schemaFixture'

preloadNamespaces('releases', 'repositories', 'issues')

const RELEASE: Release = schemaFixture('Release', {
  id: 3,
  tag_name: 'v1.0',
  target_commitish: 'main',
  name: 'First',
  body: '# Notes',
  draft: false,
  prerelease: true,
  created_at: '2026-01-02T00:00:00Z',
  published_at: '2026-01-02T00:00:00Z',
  html_url: 'http://localhost/ada/engine/releases/tag/v1.0',
  tarball_url: 'http://localhost/ada/engine/archive/v1.0.tar.gz',
  zipball_url: 'http://localhost/ada/engine/archive/v1.0.zip',
  author: schemaFixture('ForgeUser', { login: 'ada' }),
  signer: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  delegation: '',
  assets: [
    schemaFixture('Attachment', {
      id: 9,
      name: 'tool.bin',
      size: 3 * 1024 * 1024,
      download_count: 12,
      created_at: '2026-01-02T00:00:00Z',
      browser_download_url: 'http://localhost/ada/engine/releases/download/v1.0/tool.bin',
      cid: 'bafybeibfgjl63fon76xuindyyg3rcivfobkdqbzxjlmbylhzmwmbijglge',
      sha256: 'ab'.repeat(32),
    }),
  ],
})

describe('ReleasesScreen', () => {
  it('lists releases with their notes as Markdown and their assets with size, downloads and CID', async () => {
    stubApi({
      [`GET ${REPO}`]: repoFixture(),
      [`GET ${REPO}/releases`]: [RELEASE],
      'POST /api/v1/markdown': text('<h1>Notes</h1>', 200, 'text/html'),
    })
    renderScreen(<ReleasesScreen />, '/ada/engine/releases')
    await screen.findByRole('heading', { name: 'First' }, { timeout: 5000 })
    expect(await screen.findByRole('heading', { name: 'Notes' })).toBeTruthy()
    const table = screen.getByRole('table', { name: 'Assets of v1.0' })
    const link = within(table).getByRole('link', { name: 'tool.bin' })
    expect(link.getAttribute('href')).toBe(RELEASE.assets[0].browser_download_url)
    expect(within(table).getByText('3 MiB')).toBeTruthy()
    expect(within(table).getByText('12')).toBeTruthy()
    expect(within(table).getByRole('link', { name: /bafybeibfgjl63fo/ }).getAttribute('href')).toBe(`/ipfs/${RELEASE.assets[0].cid}?format=raw`)
    expect(screen.getByText('Pre-release')).toBeTruthy()
    expect(screen.getByText("Signed by the author's wallet").getAttribute('title')).toContain('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC')
    // A reader gets no write controls.
    expect(screen.queryByRole('button', { name: 'New release' })).toBeNull()
    expect(screen.queryByText('Upload an asset')).toBeNull()
  })

  it('shows the empty state', async () => {
    stubApi({ [`GET ${REPO}`]: repoFixture(), [`GET ${REPO}/releases`]: [] })
    renderScreen(<ReleasesScreen />, '/ada/engine/releases')
    expect(await screen.findByText('No releases yet.')).toBeTruthy()
  })

  it('shows a writer a draft, kept on the node, and publishes it', async () => {
    const DRAFT: Release = { ...RELEASE, id: 2 ** 50 + 1, name: 'Next', draft: true, prerelease: false, assets: [] }
    let published = false
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) }),
      [`GET ${REPO}/releases`]: () => (published ? [{ ...DRAFT, id: 4, draft: false }] : [DRAFT]),
      [`PATCH ${REPO}/releases/${DRAFT.id}`]: () => {
        published = true
        return { ...DRAFT, id: 4, draft: false }
      },
      'POST /api/v1/markdown': text('<p>Notes</p>', 200, 'text/html'),
    })
    renderScreen(<ReleasesScreen />, '/ada/engine/releases')
    await screen.findByRole('heading', { name: 'Next' }, { timeout: 5000 })
    expect(screen.getByText('Draft')).toBeTruthy()
    expect(screen.getByText(/Drafted by ada/)).toBeTruthy()
    expect(screen.getByText(/stays on this node/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }))
    await waitFor(() => expect(screen.queryByText('Draft')).toBeNull())
    expect(api.sent('PATCH', `${REPO}/releases/${DRAFT.id}`)[0].body).toEqual({ draft: false })
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull()
    // A published release cannot go back to being a draft.
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    expect(screen.queryByLabelText(/Save as a draft/)).toBeNull()
  })

  it('lets a writer create a release through the API', async () => {
    const api = stubApi({
      [`GET ${REPO}`]: repoFixture({ permissions: schemaFixture('Perm', { admin: false, push: true, pull: true }) }),
      [`GET ${REPO}/releases`]: [],
      [`POST ${REPO}/releases`]: (body: unknown) => ({ ...RELEASE, ...(body as object), assets: [] }),
    })
    renderScreen(<ReleasesScreen />, '/ada/engine/releases')
    fireEvent.click(await screen.findByRole('button', { name: 'New release' }))
    fireEvent.change(screen.getByLabelText('Tag name'), { target: { value: 'v2.0' } })
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Second' } })
    fireEvent.click(screen.getByRole('button', { name: 'Publish release' }))
    await screen.findByRole('button', { name: 'New release' }) // the form closes once saved
    expect(api.sent('POST', `${REPO}/releases`)[0].body).toMatchObject({ tag_name: 'v2.0', name: 'Second', target_commitish: 'main', draft: false })
  })
})
