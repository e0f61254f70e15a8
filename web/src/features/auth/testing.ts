// Test doubles for sign-in (imported by tests only): an EIP-1193 wallet backed
// by a real private key, announced over EIP-6963 or injected as
// window.ethereum, and the server's user in its JSON shape.
import { afterEach } from 'vitest'
import { json, stubFetch } from '@/test/render'
import type { Eip1193Provider } from './wallet'
import type { ChainParams, ServerUser } from './api'

/** Hardhat's well-known account #0: a real key, so signatures recover to ADDRESS. */
export const PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

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
    ClaimUsername: [
      { name: 'from', type: 'address' },
      { name: 'username', type: 'string' },
      { name: 'nonce', type: 'uint256' },
    ],
  },
}

export function serverUser(over: Partial<ServerUser> = {}): ServerUser {
  return {
    id: 1,
    login: 'ada',
    full_name: 'Ada Lovelace',
    email: 'ada@example.org',
    avatar_url: '',
    description: 'Analyst',
    location: 'London',
    website: 'https://ada.example.org',
    created: '2026-01-02T03:04:05Z',
    wallet_address: ADDRESS,
    two_factor_enabled: false,
    ...over,
  }
}

export interface RpcCall {
  method: string
  params?: unknown
}

/** What the fake wallet does for a method; throwing rejects the request. */
export type RpcOverride = (call: RpcCall) => unknown

/** An EIP-1193 provider over PRIVATE_KEY that records every request. */
export function fakeProvider(overrides: Record<string, RpcOverride> = {}) {
  const calls: RpcCall[] = []
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push({ method, params })
      if (overrides[method]) return overrides[method]({ method, params })
      const { privateKeyToAccount } = await import('viem/accounts')
      const account = privateKeyToAccount(PRIVATE_KEY)
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [ADDRESS]
        case 'eth_chainId':
          return '0x1e5b'
        case 'personal_sign': {
          const [data] = params as [`0x${string}`, string]
          return account.signMessage({ message: { raw: data } })
        }
        case 'eth_signTypedData_v4': {
          const [, json] = params as [string, string]
          const typed = JSON.parse(json)
          const { EIP712Domain: _d, ...types } = typed.types
          return account.signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message })
        }
        default:
          throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 })
      }
    },
  }
  return { provider, calls }
}

/** An Error as a wallet throws it when the user clicks Reject. */
export function userRejected(): never {
  throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
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

export interface ApiRequest {
  method: string
  url: string
  headers: Headers
  credentials?: RequestCredentials
  body: unknown
}

/** A route's answer: a Response as is, anything else as a 200 JSON body. */
export type ApiRoute = (req: ApiRequest) => unknown

/**
 * Replaces fetch with a fake API: routes are keyed "METHOD /path" (query
 * string included when the test cares), anything else is the API's 404.
 * Every request is recorded, body parsed.
 */
export function fakeApi(routes: Record<string, ApiRoute>) {
  const requests: ApiRequest[] = []
  const fetchMock = stubFetch(async (input, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase()
    const url = String(input)
    const text = typeof init.body === 'string' ? init.body : ''
    const req: ApiRequest = { method, url, headers: new Headers(init.headers), credentials: init.credentials, body: text ? JSON.parse(text) : undefined }
    requests.push(req)
    const route = routes[`${method} ${url}`] ?? routes[`${method} ${url.split('?')[0]}`]
    if (!route) return json({ message: 'page not found', code: 'not_found' }, 404)
    const answer = await route(req)
    return answer instanceof Response ? answer : json(answer)
  })
  return { fetchMock, requests, find: (method: string, url: string) => requests.filter((r) => r.method === method && r.url === url) }
}
