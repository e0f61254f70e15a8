import { isAddress } from '@/lib/chain/address'
import { explorerHref } from '@/components/ChainLinks'

/**
 * Where a search of the explorer leads: a whole number is a block height, 64
 * hex digits (with or without 0x) a transaction hash, 0x and 40 hex digits
 * an address. Anything else is null.
 */
export function searchHref(input: string): string | null {
  const q = input.trim()
  if (/^\d+$/.test(q) && /[1-9]/.test(q)) return explorerHref.block(BigInt(q).toString())
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(q)) return explorerHref.tx(q)
  if (isAddress(q)) return explorerHref.address(q)
  return null
}

/** A full page load: there is no client router. A function so tests can watch it. */
export const navigation = {
  go(href: string) {
    window.location.assign(href)
  },
}
