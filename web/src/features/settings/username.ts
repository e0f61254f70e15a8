// Claiming a username is a chain transaction: the wallet signs ClaimUsername
// as EIP-712 typed data with the domain and types the chain publishes, and
// the node relays it and answers once it is committed.
import { connectWallet, currentWallet, signTypedData, type TypedData } from '@/lib/wallet'
import { getAccount, getChainParams, type TxResult } from '@/lib/chain/api'
import { postJSON } from '@/lib/http'

/** Why a claim could not even be signed; the key is in the 'settings' namespace. */
export class ClaimError extends Error {
  constructor(
    readonly key: 'noWallet' | 'wrongAccount' | 'unsupported' | 'rejected',
    readonly values: Record<string, string> = {},
  ) {
    super(key)
  }
}

export type ClaimStep = 'signing' | 'submitting'

/**
 * Signs and relays ClaimUsername{from, username, nonce} from the signed-in
 * wallet. expected is the signed-in address, so a wallet switched to another
 * account does not rename someone else.
 */
export async function claimUsername(username: string, expected: string | undefined, onStep: (s: ClaimStep) => void): Promise<TxResult> {
  const wallet = await currentWallet()
  if (!wallet) throw new ClaimError('noWallet')
  const from = await connectWallet(wallet)
  if (expected && from.toLowerCase() !== expected.toLowerCase()) throw new ClaimError('wrongAccount', { connected: from, expected })
  const [params, account] = await Promise.all([getChainParams(), getAccount(from)])
  const claim = params.types.ClaimUsername
  if (!claim) throw new ClaimError('unsupported')
  const message = { from, username, nonce: account.nonce }
  const data: TypedData = {
    domain: params.eip712Domain,
    types: { EIP712Domain: params.types.EIP712Domain ?? [], ClaimUsername: claim },
    primaryType: 'ClaimUsername',
    message,
  }
  onStep('signing')
  const signature = await signTypedData(wallet, from, data)
  onStep('submitting')
  const result = await postJSON<TxResult>('/api/v1/chain/txs', { type: 'ClaimUsername', message, signature })
  if (result.code !== 0) throw new ClaimError('rejected', { message: result.log })
  return result
}
