import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Repository } from '@/lib/forge/api'
import { stubApi } from '@/test/forge'
import { json, preloadNamespaces, renderScreen, signIn, stubFetch } from '@/test/render'
import { normalizeColor, textOn } from './api'
import { LabelSettings } from './LabelSettings'

preloadNamespaces('labels')

const REPO = {
  id: 1,
  owner: { id: 1, login: 'ada' },
  name: 'app',
  full_name: 'ada/app',
  description: '',
  private: false,
  default_branch: 'main',
  stars_count: 0,
  forks_count: 0,
  updated_at: '2026-11-01T10:00:00Z',
  permissions: { admin: true, push: true, pull: true },
} as Repository

const BUG = { id: 7, name: 'bug', color: 'ee0701', description: 'Broken', exclusive: false }

/** A fetch that answers the label list and records each write. */
function labelServer(labels: unknown[]) {
  const writes: { method: string; url: string; body: unknown }[] = []
  stubFetch(async (input, init) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    if (method === 'GET' && url.startsWith('/api/v1/repos/ada/app/labels?')) return json(labels)
    writes.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    if (method === 'DELETE') return new Response(null, { status: 204 })
    return json({ ...BUG, ...(writes.at(-1)?.body as object) }, method === 'POST' ? 201 : 200)
  })
  return writes
}

describe('label colours', () => {
  it('takes six hex digits with or without #, and picks readable text', () => {
    expect(normalizeColor('EE0701')).toBe('#ee0701')
    expect(normalizeColor('#abc')).toBeNull()
    expect(textOn('#ffffff')).toBe('#000000')
    expect(textOn('#000080')).toBe('#ffffff')
  })
})

describe('LabelSettings', () => {
  it('says when there are no labels and creates one', async () => {
    const writes = labelServer([])
    renderScreen(<LabelSettings repo={REPO} />)
    expect(await screen.findByText('This repository has no labels yet.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'New label' }))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'kind/bug' } })
    fireEvent.change(screen.getByLabelText('Colour'), { target: { value: 'zz' } })
    expect(screen.getByRole('alert').textContent).toContain('six hex digits')
    fireEvent.change(screen.getByLabelText('Colour'), { target: { value: 'D73A4A' } })
    fireEvent.click(screen.getByLabelText('Exclusive within its scope'))
    fireEvent.click(screen.getByRole('button', { name: 'Create label' }))
    await waitFor(() =>
      expect(writes).toEqual([{ method: 'POST', url: '/api/v1/repos/ada/app/labels', body: { name: 'kind/bug', color: '#d73a4a', description: '', exclusive: true } }]),
    )
  })

  it('edits only what changed, and deletes after a confirmation', async () => {
    const writes = labelServer([BUG])
    renderScreen(<LabelSettings repo={REPO} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Edit label bug' }))
    const form = screen.getByRole('form', { name: 'Edit label bug' })
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'defect' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save label' }))
    await waitFor(() => expect(writes).toEqual([{ method: 'PATCH', url: '/api/v1/repos/ada/app/labels/7', body: { name: 'defect' } }]))
    fireEvent.click(await screen.findByRole('button', { name: 'Delete label bug' }))
    fireEvent.click(screen.getByRole('button', { name: 'Delete “bug” from every issue' }))
    await waitFor(() => expect(writes.at(-1)).toEqual({ method: 'DELETE', url: '/api/v1/repos/ada/app/labels/7', body: undefined }))
  })

  it('shows who signed each label, asking the node registry once, and only when a badge is opened', async () => {
    const node = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const mine = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    signIn(mine)
    const api = stubApi({
      'GET /api/v1/repos/ada/app/labels': [
        { ...BUG, signer: node, delegation: node },
        { ...BUG, id: 8, name: 'docs', signer: node, delegation: node },
        { ...BUG, id: 9, name: 'idea', signer: mine.toLowerCase(), delegation: '' },
        { ...BUG, id: 10, name: 'old', signer: '', delegation: '' },
      ],
      'GET /api/v1/nodes': [{ operator: node.toLowerCase(), url: 'https://forge.example.org', peer_id: '', addrs: [], height: 0 }],
    })
    renderScreen(<LabelSettings repo={REPO} />)
    const list = await screen.findByRole('list', { name: 'Labels' })
    const rows = within(list).getAllByRole('listitem')
    const badge = (row: HTMLElement) => within(row).queryByRole('button', { name: /^Signed / })?.textContent
    expect(rows.map(badge)).toEqual(['Signed via node 0x7099…79C8', 'Signed via node 0x7099…79C8', 'Signed by you', undefined])
    expect(api.sent('GET', '/api/v1/nodes')).toHaveLength(0)
    fireEvent.focus(within(rows[1]).getByRole('button', { name: /^Signed / }))
    await waitFor(() => expect(rows.map(badge)).toEqual(['Signed via node forge.example.org', 'Signed via node forge.example.org', 'Signed by you', undefined]))
    fireEvent.focus(within(rows[0]).getByRole('button', { name: /^Signed / }))
    expect(api.sent('GET', '/api/v1/nodes')).toHaveLength(1)
  })
})
