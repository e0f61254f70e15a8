import { PreloadLink } from '@/components/PreloadLink'
import { shortAddress, shortHash } from '@/lib/chain/address'

/** Explorer URLs: the explorer shows one block, transaction or address by query string. */
export const explorerHref = {
  block: (height: number | string) => `/explorer?block=${encodeURIComponent(String(height))}`,
  tx: (hash: string) => `/explorer?tx=${encodeURIComponent(hash)}`,
  address: (address: string) => `/explorer?address=${encodeURIComponent(address)}`,
}

export function AddressLink({ address, full = false }: { address: string; full?: boolean }) {
  return (
    <PreloadLink to={explorerHref.address(address)} title={address} className="mono">
      {full ? address : shortAddress(address)}
    </PreloadLink>
  )
}

export function TxLink({ hash, full = false }: { hash: string; full?: boolean }) {
  return (
    <PreloadLink to={explorerHref.tx(hash)} title={hash} className="mono">
      {full ? hash : shortHash(hash)}
    </PreloadLink>
  )
}

export function BlockLink({ height }: { height: number }) {
  return <PreloadLink to={explorerHref.block(height)}>{height}</PreloadLink>
}
