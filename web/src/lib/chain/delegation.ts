// Delegations: the user's on-chain authorization of a node's key to sign
// their forge actions (issues, comments, pushes...) until a block height.
// Sign-in asks for one with a second wallet signature; Settings lists them
// and revokes them with an Undelegate the user's own wallet signs.
import { useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'
import { toBigInt } from './amount'
import { getAccount, getChainParams, type TxResult } from './api'
import { signAndRelay, type TxStep, typedMessage } from './tx'
import { explainWalletError } from './walletSignature'

/** The scopes a delegation can cover, as the chain names them. */
export const DELEGATION_SCOPES = ['issue', 'misc', 'notification', 'organization', 'repository', 'user'] as const

/** GET /api/v1/user/delegation: whether this node needs (a fresh) delegation, and the Delegate message to sign for it. */
export interface DelegationNeed {
  needed: boolean
  /** This node's key. */
  delegate: string
  /** Comma-separated, sorted. */
  scopes: string
  /** The block height the delegation would hold until (height < expiry). */
  expiry: number
  message: { from: string; delegate: string; scopes: string; expiry: number | string; nonce: number | string }
}

/** One of the user's delegations, as GET /api/v1/user/delegations lists them. */
export interface Delegation {
  delegate: string
  /** The node registered with that key, when there is one. */
  node: { url: string } | null
  scopes: string[]
  since: number
  sinceTime: string
  expiry: number
  live: boolean
  thisNode: boolean
}

// Always asked fresh: the nonce in the message is single use.
export const getDelegationNeed = () => getJSON<DelegationNeed>('/api/v1/user/delegation', { cache: 'no-store' })

export const delegationKeys = { list: ['user', 'delegations'] as const }

export function useDelegations() {
  return useQuery({ queryKey: delegationKeys.list, queryFn: () => getJSON<Delegation[]>('/api/v1/user/delegations') })
}

/** Signs the server's Delegate message in the user's wallet and relays it. */
export async function authorizeNode(need: DelegationNeed, onStep?: (s: TxStep) => void): Promise<TxResult> {
  const params = await getChainParams()
  const message = await typedMessage(params, 'Delegate', need.message)
  return signAndRelay(params, message.from, 'Delegate', message, onStep).catch((err: unknown) => {
    throw explainWalletError(err)
  })
}

/** Ends account's delegation to delegate with an Undelegate its own wallet signs. */
export async function revokeDelegation(account: string, delegate: string, onStep?: (s: TxStep) => void): Promise<TxResult> {
  const [params, chainAccount] = await Promise.all([getChainParams(), getAccount(account)])
  const nonce = toBigInt(chainAccount.nonce).toString()
  const message = await typedMessage(params, 'Undelegate', { from: account, account, delegate, nonce })
  return signAndRelay(params, message.from, 'Undelegate', message, onStep).catch((err: unknown) => {
    throw explainWalletError(err)
  })
}
