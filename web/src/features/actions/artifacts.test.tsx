import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { preloadNamespaces, renderScreen } from '@/test/render'
import { REPO, repoFixture, stubApi } from '@/test/forge'
import type { Artifact } from './api'
import RunScreen from './RunScreen'
import { ACTIONS, jobFixture, runFixture, stubEventSource } from './testing'

preloadNamespaces('actions', 'repositories')

const DIST: Artifact = {
  id: 5,
  name: 'dist',
  size_in_bytes: 3 * 1024 * 1024,
  archive_download_url: `http://localhost${ACTIONS}/artifacts/5/zip`,
  expired: false,
  expires_at: '2099-01-01T00:00:00Z',
  created_at: '2026-01-02T00:04:00Z',
  cid: 'bafkreiexample',
}
const LOGS: Artifact = { ...DIST, id: 6, name: 'logs', size_in_bytes: 512, expired: true, cid: '' }

function stub(artifacts: Artifact[]) {
  return stubApi({
    [`GET ${REPO}`]: repoFixture(),
    [`GET ${ACTIONS}/runs/42`]: runFixture(),
    [`GET ${ACTIONS}/runs/42/jobs`]: { jobs: [jobFixture({ id: 1, name: 'build' })], total_count: 1 },
    [`GET ${ACTIONS}/runs/42/artifacts`]: { artifacts, total_count: artifacts.length },
  })
}

describe('the run page’s artifacts', { timeout: 15_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('lists each artifact with its size, expiry and a download link, and no link once expired', async () => {
    stubEventSource(true)
    const api = stub([DIST, LOGS])
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    const section = await screen.findByRole('region', { name: 'Artifacts' })
    const link = await within(section).findByRole('link', { name: 'Download dist' })
    expect(link.getAttribute('href')).toBe(DIST.archive_download_url)
    const rows = within(section).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getAllByRole('cell')[1].textContent)).toEqual(['3 MiB', '512 B'])
    expect(within(rows[0]).getByText('CID bafkreiexample')).toBeTruthy()
    expect(within(rows[1]).getByText('Expired')).toBeTruthy()
    expect(within(rows[1]).queryByRole('link')).toBeNull()
    expect(api.sent('GET', `${ACTIONS}/runs/42/artifacts`).length).toBeGreaterThan(0)
  })

  it('says so when the run has none', async () => {
    stubEventSource(true)
    stub([])
    renderScreen(<RunScreen />, '/ada/engine/actions/runs/42')
    const section = await screen.findByRole('region', { name: 'Artifacts' })
    expect(await within(section).findByText('This run has no artifacts.')).toBeTruthy()
    expect(within(section).queryByRole('table')).toBeNull()
  })
})
