// The chain's REST API (/api/v1/chain/*, /api/v1/accounts/*): types in the
// server's shapes, fetchers that keep amounts exact, and the TanStack Query
// hooks the wallet, explorer, validators, staking and treasury pages share.
// Every key starts with "chain", so one height change can refresh them all.
import { keepPreviousData, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { NotFoundError } from '@/components/QueryState'
import { apiError, retryUnlessNotFound } from '@/lib/http'
import { noteResponse } from '@/lib/savedCopy'
import type { Optional, Schema } from '@/lib/apiSchema'
import type { Micro } from './amount'
import { parseExactJSON } from './exactJSON'

export interface TypedField {
  name: string
  type: string
}

export interface ChainParams {
  chainId: string
  token: { symbol: string; decimals: number }
  eip712Domain: { name: string; version: string; chainId: number }
  types: Record<string, TypedField[]>
  /** Published by newer nodes; without it the unstake form cannot say how long unbonding takes. */
  unbondingBlocks?: number
}

// The chain's amounts (uint64 micro-units, and the validators' int64 powers)
// are read through parseExactJSON, so each may be a decimal string (Micro)
// where the document says integer: those fields are hand-written over the
// generated types.

/** GET /api/v1/chain/status. */
export type ChainStatus = Omit<Schema<'index.Status'>, 'supply' | 'staked' | 'unbonding' | 'treasury'> & {
  supply: Micro
  staked: Micro
  unbonding: Micro
  treasury: Omit<Schema<'index.Treasury'>, 'balance'> & { balance: Micro }
}

export type Block = Schema<'index.Block'>

export type BlockDetail = Omit<Schema<'index.BlockDetail'>, 'transactions'> & { transactions: Tx[] }

// A committed transaction; to, target and username are "" and amount 0 when
// the kind has none, and actor and action (a forge action's user and name)
// are left out (omitempty) for the others.
export type Tx = Optional<Omit<Schema<'index.Tx'>, 'amount' | 'nonce'> & { amount: Micro; nonce: Micro }, 'actor' | 'action'>

export type Validator = Omit<Schema<'index.Validator'>, 'power' | 'proposerPriority'> & { power: Micro; proposerPriority: Micro }

export interface Account {
  address: string
  username?: string
  balance: Micro
  staked: Micro
  unbonding: Micro
  nonce: Micro
}

/** POST /api/v1/chain/txs: the transaction's block once committed; proposalId (a Propose's) is left out (omitempty) for the others. */
export type TxResult = Optional<Schema<'chain.Result'>, 'proposalId'>

/** One page of a list, with the total from X-Total-Count when the server sent it. */
export interface Page<T> {
  items: T[]
  total: number | null
}

/** How often pages ask for the chain height; a new height refreshes the rest. */
export const POLL_MS = 2_000

async function fetchChain(path: string): Promise<Response> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } })
  noteResponse(res)
  if (res.status === 404) throw new NotFoundError(`not found: ${path}`)
  if (!res.ok) throw await apiError(res)
  return res
}

export async function getChain<T>(path: string): Promise<T> {
  return parseExactJSON(await (await fetchChain(path)).text()) as T
}

export async function getChainPage<T>(path: string, page: number, limit: number): Promise<Page<T>> {
  const sep = path.includes('?') ? '&' : '?'
  const res = await fetchChain(`${path}${sep}page=${page}&limit=${limit}`)
  const total = res.headers.get('X-Total-Count')
  return { items: parseExactJSON(await res.text()) as T[], total: total === null ? null : Number(total) }
}

export const chainKeys = {
  params: ['chain', 'params'] as const,
  status: ['chain', 'status'] as const,
  account: (address: string) => ['chain', 'account', address.toLowerCase()] as const,
}

/** The chain's id, token, and the EIP-712 domain and types its transactions are signed with. */
export const getChainParams = () => getChain<ChainParams>('/api/v1/chain/params')

export const paramsQuery = {
  queryKey: chainKeys.params,
  queryFn: getChainParams,
  staleTime: Infinity,
}

export function useChainParams() {
  return useQuery(paramsQuery)
}

export function useChainStatus() {
  return useQuery({ queryKey: chainKeys.status, queryFn: () => getChain<ChainStatus>('/api/v1/chain/status') })
}

/**
 * Polls the chain height and, when it changes, refreshes every other chain
 * query on the page, so balances and lists follow new blocks. Call it once
 * per screen; other components read the same status with useChainStatus.
 */
export function useLiveChain() {
  const client = useQueryClient()
  const status = useQuery({
    queryKey: chainKeys.status,
    queryFn: () => getChain<ChainStatus>('/api/v1/chain/status'),
    refetchInterval: POLL_MS,
  })
  const height = status.data?.height
  const seen = useRef<number | undefined>(undefined)
  useEffect(() => {
    if (height === undefined) return
    if (seen.current !== undefined && seen.current !== height) void refreshChain(client)
    seen.current = height
  }, [client, height])
  return status
}

/** Refetches every chain query but the status (which drives this) and the params (which never change). */
export function refreshChain(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'chain' && q.queryKey[1] !== 'status' && q.queryKey[1] !== 'params' })
}

const list = { placeholderData: keepPreviousData }

export function useBlocks(page: number, limit: number) {
  return useQuery({ queryKey: ['chain', 'blocks', page, limit], queryFn: () => getChainPage<Block>('/api/v1/chain/blocks', page, limit), ...list })
}

export function useTxs(filter: { type?: string; address?: string }, page: number, limit: number) {
  const qs = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => !!e[1])).toString()
  return useQuery({
    queryKey: ['chain', 'txs', filter, page, limit],
    queryFn: () => getChainPage<Tx>(`/api/v1/chain/txs${qs ? `?${qs}` : ''}`, page, limit),
    ...list,
  })
}

export function useBlock(height: number) {
  return useQuery({
    queryKey: ['chain', 'block', height],
    queryFn: () => getChain<BlockDetail>(`/api/v1/chain/blocks/${height}`),
    retry: retryUnlessNotFound,
  })
}

export function useTx(hash: string) {
  return useQuery({
    queryKey: ['chain', 'tx', hash],
    queryFn: () => getChain<Tx>(`/api/v1/chain/txs/${encodeURIComponent(hash)}`),
    retry: retryUnlessNotFound,
  })
}

export function useValidators() {
  return useQuery({ queryKey: ['chain', 'validators'], queryFn: () => getChain<Validator[]>('/api/v1/chain/validators') })
}

export function getAccount(address: string): Promise<Account> {
  return getChain<Account>(`/api/v1/accounts/${encodeURIComponent(address)}`)
}

export function useAccount(address: string | undefined) {
  return useQuery({
    queryKey: chainKeys.account(address ?? ''),
    queryFn: () => getAccount(address!),
    enabled: !!address,
    retry: retryUnlessNotFound,
  })
}

export function useAccountTxs(address: string, page: number, limit: number) {
  return useQuery({
    queryKey: ['chain', 'accountTxs', address.toLowerCase(), page, limit],
    queryFn: () => getChainPage<Tx>(`/api/v1/accounts/${encodeURIComponent(address)}/txs`, page, limit),
    ...list,
  })
}
