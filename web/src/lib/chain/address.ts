/** 0x and 40 hex digits, as the chain reads an address (the EIP-55 checksum is checked separately). */
export function isAddress(s: string): boolean {
  return /^0[xX][0-9a-fA-F]{40}$/.test(s)
}

export function isZeroAddress(s: string): boolean {
  return /^0[xX]0{40}$/.test(s)
}

/** "0x5290…9EE7": enough to recognise an address in a table; the full one goes in a title. */
export function shortAddress(s: string): string {
  return s.length > 14 ? `${s.slice(0, 6)}…${s.slice(-4)}` : s
}

/** A hash cut to its start and end for tables. */
export function shortHash(s: string): string {
  return s.length > 16 ? `${s.slice(0, 8)}…${s.slice(-6)}` : s
}

/**
 * The EIP-55 form of an address, or null when its mixed case is a checksum
 * that does not match (a typo). viem is loaded here, only when signing.
 */
export async function checksumAddress(s: string): Promise<string | null> {
  const { getAddress, isAddress: isChecksummed } = await import('viem')
  const hex = s.slice(2)
  // All lower or all upper case carries no checksum, as in EIP-55.
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return getAddress(`0x${hex.toLowerCase()}`)
  return isChecksummed(s, { strict: true }) ? getAddress(s) : null
}
