import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useNodes } from '@/lib/nodes'
import { json, renderScreen, signIn, stubFetch } from '@/test/render'
import { SignerBadge } from './SignerBadge'

const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const NODE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** Another part of the page that shows the node registry (as the explorer's nodes list does). */
function Registry() {
  useNodes()
  return null
}

const nodes = [{ operator: NODE.toLowerCase(), url: 'https://forge.example.org', peer_id: '12D3KooW', addrs: [], height: 0 }]

describe('SignerBadge', () => {
  it('says "Signed by you" for the viewer\'s own signature, whatever the case of the address', () => {
    const fetchMock = stubFetch()
    signIn(ME)
    renderScreen(<SignerBadge signer={ME.toLowerCase()} delegation="" />)
    const badge = screen.getByText('Signed by you')
    expect(badge.getAttribute('title')).toBe(`Signed on chain by ${ME.toLowerCase()}`)
    // No node to name: the registry is not asked.
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("says another author's own wallet signed it", () => {
    stubFetch()
    signIn(ME)
    renderScreen(<SignerBadge signer={NODE} delegation="" />)
    expect(screen.getByText("Signed by the author's wallet")).toBeTruthy()
  })

  it('names a delegated record\'s node by its short address, asking the registry nothing until the badge is hovered', async () => {
    const fetchMock = stubFetch(async () => json(nodes))
    renderScreen(<SignerBadge signer={NODE} delegation={NODE} />)
    const badge = screen.getByRole('button', { name: 'Signed via node 0x7099…79C8' })
    expect(fetchMock).not.toHaveBeenCalled()
    fireEvent.mouseEnter(badge)
    expect(await screen.findByRole('button', { name: 'Signed via node forge.example.org' })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(String(fetchMock.mock.calls[0][0])).toMatch(/^\/api\/v1\/nodes\b/)
  })

  it('looks the node up when the keyboard reaches the badge, and opens on the full signing key', async () => {
    stubFetch(async () => json(nodes))
    renderScreen(<SignerBadge signer={NODE} delegation={NODE} />)
    const badge = screen.getByRole('button', { name: /^Signed via node / })
    fireEvent.focus(badge)
    expect(await screen.findByRole('button', { name: 'Signed via node forge.example.org' })).toBe(badge)
    expect(badge.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(badge)
    expect(badge.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByText(`Signed on chain by ${NODE}`)).toBeTruthy()
    fireEvent.click(badge)
    expect(screen.queryByText(`Signed on chain by ${NODE}`)).toBeNull()
  })

  it('asks the registry once for every badge of the page', async () => {
    const fetchMock = stubFetch(async () => json(nodes))
    renderScreen(
      <>
        <SignerBadge signer={NODE} delegation={NODE} />
        <SignerBadge signer={NODE} delegation={NODE} />
      </>,
    )
    const [first, second] = screen.getAllByRole('button', { name: /^Signed via node / })
    fireEvent.mouseEnter(first)
    fireEvent.mouseEnter(second)
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Signed via node forge.example.org' })).toHaveLength(2))
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('names the node at once from a registry the page already loaded', async () => {
    const fetchMock = stubFetch(async () => json(nodes))
    renderScreen(
      <>
        <Registry />
        <SignerBadge signer={NODE} delegation={NODE} />
      </>,
    )
    expect(await screen.findByRole('button', { name: 'Signed via node forge.example.org' })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('falls back to the short address of an unregistered node', async () => {
    const fetchMock = stubFetch(async () => json([]))
    renderScreen(<SignerBadge signer="0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" delegation="0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" />)
    fireEvent.mouseEnter(screen.getByRole('button'))
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    expect(await screen.findByText('Signed via node 0x3C44…93BC')).toBeTruthy()
  })

  it('shows nothing for an older record without a signer', () => {
    stubFetch()
    const { container } = renderScreen(<SignerBadge signer="" delegation="" />)
    expect(container.textContent).toBe('')
  })
})
