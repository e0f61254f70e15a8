/**
 * A fake browser wallet for tests (imported by tests only): an EIP-1193
 * provider backed by a real private key that records every request, announced
 * over EIP-6963 or injected as window.ethereum until the test ends, and the
 * chain parameters it signs typed data against.
 */
import { afterEach } from 'vitest'
import type { Eip1193Provider } from '@/lib/wallet'
import type { ChainParams } from '@/lib/chain/api'

/** Hardhat's well-known account #0: a real key, so signatures recover to ADDRESS. */
export const PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

/** GET /api/v1/chain/params as internal/api publishes it (tx.Types()). */
export const CHAIN_PARAMS: ChainParams = {
  chainId: 'dforge-7771',
  token: { symbol: 'DFG', decimals: 6 },
  eip712Domain: { name: 'dForge', version: '1', chainId: 7771 },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Transfer: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
    ],
    Tip: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'target', type: 'string' },
      { name: 'nonce', type: 'uint256' },
    ],
    Stake: [
      { name: 'from', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
    ],
    Unstake: [
      { name: 'from', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
    ],
    TreasuryDeposit: [
      { name: 'from', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
    ],
    ClaimUsername: [
      { name: 'from', type: 'address' },
      { name: 'username', type: 'string' },
      { name: 'nonce', type: 'uint256' },
    ],
    Forge: [
      { name: 'from', type: 'address' },
      { name: 'actor', type: 'address' },
      { name: 'action', type: 'string' },
      { name: 'payload', type: 'string' },
      { name: 'nonce', type: 'uint256' },
    ],
    Delegate: [
      { name: 'from', type: 'address' },
      { name: 'delegate', type: 'address' },
      { name: 'scopes', type: 'string' },
      { name: 'expiry', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
    ],
    Undelegate: [
      { name: 'from', type: 'address' },
      { name: 'account', type: 'address' },
      { name: 'delegate', type: 'address' },
      { name: 'nonce', type: 'uint256' },
    ],
  },
}

export interface RpcCall {
  method: string
  params?: unknown
}

/** What the fake wallet does for a method; throwing rejects the request. */
export type RpcOverride = (call: RpcCall) => unknown

/**
 * An EIP-1193 provider over PRIVATE_KEY (account ADDRESS, chain 7771) that
 * records every request; overrides answer their methods instead.
 */
export function fakeProvider(overrides: Record<string, RpcOverride> = {}) {
  const calls: RpcCall[] = []
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push({ method, params })
      if (overrides[method]) return overrides[method]({ method, params })
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [ADDRESS]
        case 'eth_chainId':
          return '0x1e5b'
        case 'personal_sign': {
          const [data] = params as [`0x${string}`, string]
          return (await account()).signMessage({ message: { raw: data } })
        }
        case 'eth_signTypedData_v4': {
          const [, json] = params as [string, string]
          const typed = JSON.parse(json)
          const { EIP712Domain: _d, ...types } = typed.types
          return (await account()).signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message })
        }
        default:
          throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 })
      }
    },
  }
  return { provider, calls }
}

async function account() {
  const { privateKeyToAccount } = await import('viem/accounts')
  return privateKeyToAccount(PRIVATE_KEY)
}

/** An Error as a wallet throws it when the user clicks Reject. */
export function userRejected(): never {
  throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
}

/** The typed data the wallet was asked to sign (eth_signTypedData_v4), parsed, in order. */
export interface SignedTypedData {
  domain: unknown
  types: unknown
  primaryType: string
  message: Record<string, string>
}

export function signedTypedData(calls: RpcCall[]): SignedTypedData[] {
  return calls.filter((c) => c.method === 'eth_signTypedData_v4').map((c) => JSON.parse((c.params as [string, string])[1]) as SignedTypedData)
}

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

/** Announces a wallet over EIP-6963 until the test ends. */
export function announceWallet(name: string, provider: Eip1193Provider, rdns = `org.example.${name.toLowerCase().replace(/\W+/g, '')}`, icon = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>') {
  const onRequest = () => {
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid: rdns, name, icon, rdns }, provider } }))
  }
  window.addEventListener('eip6963:requestProvider', onRequest)
  cleanups.push(() => window.removeEventListener('eip6963:requestProvider', onRequest))
}

/** Sets window.ethereum until the test ends. */
export function injectWallet(provider: Eip1193Provider) {
  ;(window as { ethereum?: Eip1193Provider }).ethereum = provider
  cleanups.push(() => {
    delete (window as { ethereum?: Eip1193Provider }).ethereum
  })
}
