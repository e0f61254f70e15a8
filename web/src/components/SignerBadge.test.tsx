import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { json, renderScreen, signIn, stubFetch } from '@/test/render'
import { SignerBadge } from './SignerBadge'

const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const NODE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
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

  it('names the node a delegated record went through, from the node registry', async () => {
    stubFetch(async () => json(nodes))
    renderScreen(<SignerBadge signer={NODE} delegation={NODE} />)
    expect(await screen.findByText('Signed via node forge.example.org')).toBeTruthy()
  })

  it('falls back to the short address of an unregistered node', async () => {
    stubFetch(async () => json([]))
    renderScreen(<SignerBadge signer="0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" delegation="0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" />)
    expect(await screen.findByText('Signed via node 0x3C44…93BC')).toBeTruthy()
  })

  it('shows nothing for an older record without a signer', () => {
    stubFetch()
    const { container } = renderScreen(<SignerBadge signer="" delegation="" />)
    expect(container.textContent).toBe('')
  })
})
