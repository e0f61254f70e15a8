import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeChain, stubChain } from '@/test/chain'
import type { RegisteredNode } from '@/lib/nodes'
import { json, preloadNamespaces, renderScreen, stubFetch } from '@/test/render'
import { NodesSection } from './NodesSection'
import ValidatorsScreen from './ValidatorsScreen'

preloadNamespaces('explorer', 'wallet')

const NODES: RegisteredNode[] = [
  {
    operator: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    url: 'https://a.example.org',
    peer_id: '12D3KooWSNhSwoy21BvU28GHxxYobUFZbkQzjQqAR9v7yp4Kmeff',
    addrs: ['/ip4/203.0.113.7/tcp/4101', '/dns4/a.example.org/tcp/4101'],
    height: 0,
  },
  { operator: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', url: 'http://127.0.0.1:3000', peer_id: 'QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N', addrs: [], height: 12 },
]

const cells = () =>
  within(screen.getByRole('table', { name: 'Node registry' }))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))

describe('NodesSection', () => {
  it('lists each node with its URL, operator, peer id, addresses and block', async () => {
    const fetchMock = stubFetch({ '/api/v1/nodes?limit=100': NODES })
    renderScreen(<NodesSection />, '/validators')
    await screen.findByRole('table', { name: 'Node registry' })
    expect(cells()).toEqual([
      [NODES[0].url, NODES[0].operator, NODES[0].peer_id, NODES[0].addrs.join(''), 'Genesis'],
      [NODES[1].url, NODES[1].operator, NODES[1].peer_id, 'None', '12'],
    ])
    expect(screen.getByRole('link', { name: 'https://a.example.org' }).getAttribute('href')).toBe('https://a.example.org')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('shows the empty state', async () => {
    stubFetch({ '/api/v1/nodes?limit=100': [] })
    renderScreen(<NodesSection />, '/validators')
    expect(await screen.findByText('No nodes are registered yet')).toBeTruthy()
  })

  it('shows the loading state, then an error with a retry', async () => {
    stubFetch(async () => json({ message: 'boom', code: 'internal' }, 500))
    renderScreen(<NodesSection />, '/validators')
    expect(screen.getByRole('status').textContent).toMatch(/Loading/)
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy()
  })
})

describe('ValidatorsScreen with the node registry', () => {
  it('shows the validator set and the registered nodes', async () => {
    const chain = stubChain(fakeChain())
    stubFetch(async (input, init) => (new URL(String(input), 'http://node.test').pathname === '/api/v1/nodes' ? json(NODES) : chain(input, init)))
    renderScreen(<ValidatorsScreen />, '/validators')
    await screen.findByRole('table', { name: 'Validator set' })
    await screen.findByRole('table', { name: 'Node registry' })
    expect(cells().map((r) => r[0])).toEqual([NODES[0].url, NODES[1].url])
  })
})
