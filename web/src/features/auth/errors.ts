import { ApiError } from '@/lib/http'

/** What went wrong, as a key of the 'auth' namespace's errors and its values. */
export interface ErrorText {
  key: string
  values?: Record<string, string | number>
}

/** Server codes with a translated explanation; any other code shows the server's own message. */
const KNOWN_CODES: Record<string, string> = {
  siwe_invalid_message: 'errors.invalidMessage',
  siwe_domain_mismatch: 'errors.domainMismatch',
  siwe_uri_mismatch: 'errors.domainMismatch',
  siwe_chain_mismatch: 'errors.wrongNetwork',
  siwe_nonce_invalid: 'errors.nonceInvalid',
  siwe_expired: 'errors.expired',
  siwe_bad_signature: 'errors.badSignature',
  twofactor_invalid_code: 'errors.invalidCode',
}

/** EIP-1193 error codes (https://eips.ethereum.org/EIPS/eip-1193#provider-errors). */
const USER_REJECTED = 4001
const REQUEST_PENDING = -32002

// viem wraps a provider's error in its own, keeping the original as cause.
function chain(err: unknown): { code?: unknown; name?: unknown; message?: unknown; details?: unknown }[] {
  const out = []
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    out.push(e as { code?: unknown; name?: unknown; message?: unknown; details?: unknown })
    e = (e as { cause?: unknown }).cause
  }
  return out
}

/** True when the user said no in the wallet. */
export function isUserRejection(err: unknown): boolean {
  return chain(err).some((e) => e.code === USER_REJECTED || e.name === 'UserRejectedRequestError')
}

// A wallet refuses typed data whose domain names another chain than the one
// it is on; MetaMask says 'Provided chainId "7771" must match the active chainId "1"'.
function isChainMismatch(err: unknown): boolean {
  return chain(err).some((e) => /chain ?id.*(must match|mismatch|does not match)|wrong (network|chain)/i.test(`${e.message ?? ''} ${e.details ?? ''}`))
}

/** The explanation of a failed sign-in or signing step. */
export function describeError(err: unknown): ErrorText {
  if (isUserRejection(err)) return { key: 'errors.rejected' }
  if (chain(err).some((e) => e.code === REQUEST_PENDING)) return { key: 'errors.pending' }
  if (err instanceof ApiError) {
    if (err.status === 429) return err.retryAfter ? { key: 'errors.rateLimitedFor', values: { seconds: err.retryAfter } } : { key: 'errors.rateLimited' }
    const known = KNOWN_CODES[err.code]
    if (known) return { key: known }
    return { key: 'errors.server', values: { message: err.message } }
  }
  if (isChainMismatch(err)) return { key: 'errors.wrongNetwork' }
  // fetch rejects with a TypeError when the server cannot be reached at all.
  if (err instanceof TypeError && /fetch|network|load failed/i.test(err.message)) return { key: 'errors.offline' }
  const message = err instanceof Error ? err.message : String(err)
  return { key: 'errors.unknown', values: { message } }
}
