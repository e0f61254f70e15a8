// Signing and relaying a transaction: the account's nonce, the EIP-712
// message built from the types the chain publishes, the signature from the
// user's wallet, then POST /api/v1/chain/txs, which answers once committed.
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { currentWallet, type Hex, signTypedData } from '@/lib/wallet'
import { ApiError, postJSON } from '@/lib/http'
import { toBigInt } from './amount'
import { type ChainParams, getAccount, paramsQuery, refreshChain, type TxResult, type TypedField } from './api'

/** The transactions the wallet, governance, bounty and grant pages sign (EIP-712 primary types). */
export type TxKind = 'Transfer' | 'Tip' | 'Stake' | 'Unstake' | 'TreasuryDeposit' | 'Propose' | 'Vote' | 'BountyFund' | 'BountyRefund' | 'GrantApprove'

/** A transaction's values; each kind uses the fields its published type names. */
export interface TxInput {
  amount?: bigint
  to?: string
  target?: string
  /** Propose: "text" | "param" | "spend" | "validator". */
  proposalType?: string
  title?: string
  description?: string
  /** Propose: the type's fields as a JSON object of strings. */
  payload?: string
  deposit?: bigint
  /** Vote: the proposal's id. */
  proposal?: number
  /** Vote: "yes" | "no" | "abstain". */
  option?: string
  /** Bounties: the repository's id on chain and the issue's number. */
  repo?: number
  issue?: number
  /** BountyFund: the block height after which the funder may take the share back. */
  expiry?: number
  /** GrantApprove: the grant's id (its proposal's) and the milestone's index, from 0. */
  grant?: number
  milestone?: number
}

/**
 * The message of a primaryType, with exactly the fields the chain publishes
 * for it and in its order. uint256 values are decimal strings, so no amount
 * passes through a float on its way to the wallet.
 */
export function buildMessage(fields: TypedField[] | undefined, values: Record<string, string | undefined>): Record<string, string> {
  if (!fields) throw new Error('the chain does not publish this transaction type')
  return Object.fromEntries(
    fields.map((f) => {
      const v = values[f.name]
      if (v === undefined) throw new Error(`no value for the field "${f.name}"`)
      return [f.name, v]
    }),
  )
}

/**
 * A message the server prepared (a delegation, a sensitive action) in the
 * form the wallet signs: the published type's fields in order, numbers as
 * decimal strings, addresses in their EIP-55 form (viem refuses a
 * mixed-case address whose checksum is wrong, and the server may send any case).
 */
export async function typedMessage(params: ChainParams, primaryType: string, values: Record<string, unknown>): Promise<Record<string, string>> {
  const { getAddress } = await import('viem')
  const fields = params.types[primaryType]
  const strings = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === undefined || v === null ? undefined : String(v)]))
  const message = buildMessage(fields, strings)
  for (const f of fields ?? []) if (f.type === 'address') message[f.name] = getAddress(message[f.name])
  return message
}

/** Whether the wallet said the user declined (EIP-1193 code 4001), however deeply a library wrapped it. */
export function isUserRejection(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 10; depth++) {
    const x = e as { code?: unknown; name?: unknown; cause?: unknown }
    if (x.code === 4001 || x.name === 'UserRejectedRequestError') return true
    e = x.cause
  }
  return false
}

export type TxError =
  | { kind: 'rejected' }
  | { kind: 'noWallet' }
  | { kind: 'failed'; log: string }
  | { kind: 'server'; message: string; code: string }
  | { kind: 'other'; message: string }

/** A transaction that did not go through; a wallet's refusal is kept as the cause. */
export class TxFailure extends Error {
  constructor(
    readonly detail: TxError,
    cause?: unknown,
  ) {
    super(detail.kind, { cause })
  }
}

export type TxStep = 'preparing' | 'signing' | 'submitting'

/** Signs kind for from in the browser wallet and relays it; resolves once it is in a block. */
export async function sendTx(client: QueryClient, from: string, kind: TxKind, input: TxInput, onStep: (s: TxStep) => void): Promise<TxResult> {
  onStep('preparing')
  const [{ getAddress }, params, account] = await Promise.all([import('viem'), client.fetchQuery(paramsQuery), getAccount(from)])
  const signer = getAddress(from)
  const message = buildMessage(params.types[kind], {
    from: signer,
    to: input.to,
    amount: input.amount?.toString(),
    target: input.target,
    proposalType: input.proposalType,
    title: input.title,
    description: input.description,
    payload: input.payload,
    deposit: input.deposit?.toString(),
    proposal: input.proposal?.toString(),
    option: input.option,
    repo: input.repo?.toString(),
    issue: input.issue?.toString(),
    expiry: input.expiry?.toString(),
    grant: input.grant?.toString(),
    milestone: input.milestone?.toString(),
    nonce: toBigInt(account.nonce).toString(),
  })
  return signAndRelay(params, signer, kind, message, onStep)
}

/**
 * Signs message as EIP-712 primaryType in the browser wallet (as signer,
 * with the chain's published domain and types) and relays it; resolves once
 * it is in a block. The sign-in's delegation, its revocation and the
 * sensitive actions a node may not sign use it as the wallet forms do.
 */
export async function signAndRelay(
  params: ChainParams,
  signer: string,
  primaryType: string,
  message: Record<string, string>,
  onStep: (s: TxStep) => void = () => {},
): Promise<TxResult> {
  onStep('signing')
  const signature = await signTyped(params, signer, primaryType, message)
  onStep('submitting')
  const result = await postJSON<TxResult>('/api/v1/chain/txs', { type: primaryType, message, signature })
  if (result.code !== 0) throw new TxFailure({ kind: 'failed', log: result.log })
  return result
}

/** Signs message as EIP-712 primaryType in the browser wallet, as signer, without relaying it. */
export async function signTyped(params: ChainParams, signer: string, primaryType: string, message: Record<string, string>): Promise<Hex> {
  const wallet = await currentWallet()
  if (!wallet) throw new TxFailure({ kind: 'noWallet' })
  try {
    return await signTypedData(wallet, signer as Hex, { domain: params.eip712Domain, types: params.types, primaryType, message })
  } catch (err) {
    if (isUserRejection(err)) throw new TxFailure({ kind: 'rejected' }, err)
    throw err
  }
}

/** What went wrong with a transaction, for display. */
export function describeTxError(err: unknown): TxError {
  if (err instanceof TxFailure) return err.detail
  if (err instanceof ApiError) return { kind: 'server', message: err.message, code: err.code }
  return { kind: 'other', message: err instanceof Error ? err.message : String(err) }
}

export type TxState = { step: 'idle' } | { step: TxStep } | { step: 'committed'; result: TxResult } | { step: 'error'; error: TxError }

/** A form's transaction: its progress for display and run(), which resolves to the committed result, or null when it did not commit. */
export function useChainTx(from: string, kind: TxKind) {
  const client = useQueryClient()
  const [state, setState] = useState<TxState>({ step: 'idle' })
  const run = async (input: TxInput): Promise<TxResult | null> => {
    try {
      const result = await sendTx(client, from, kind, input, (step) => setState({ step }))
      setState({ step: 'committed', result })
      void refreshChain(client)
      return result
    } catch (err) {
      setState({ step: 'error', error: describeTxError(err) })
      return null
    }
  }
  const busy = state.step === 'preparing' || state.step === 'signing' || state.step === 'submitting'
  return { state, run, busy }
}
