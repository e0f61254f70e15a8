// Test doubles for the chain pages (imported by tests only): the chain's REST
// API over in-memory fixtures in the server's shapes, and @/test/wallet's
// wallet as the account WALLET, recording what it is asked to sign.
import { json, stubFetch, WALLET } from '@/test/render'
import { CHAIN_PARAMS, fakeProvider, injectWallet, type RpcCall, type SignedTypedData, signedTypedData, userRejected } from '@/test/wallet'
import type { Account, Block, BlockDetail, ChainParams, ChainStatus, Tx, TxResult, Validator } from '@/lib/chain/api'
import { schemaFixture } from './schemaFixture'

export { WALLET }
export const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'
export const TREASURY = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'
export const SIGNATURE = `0x${'ab'.repeat(65)}`

/** The chain's parameters, with every transaction type the node publishes. */
export const PARAMS = CHAIN_PARAMS

export const HASH = (n: number) => n.toString(16).toUpperCase().padStart(64, 'A')

export function tx(over: Partial<Tx> & { hash: string }): Tx {
  return {
    ...schemaFixture('index.Tx', { height: 7, type: 'Transfer', from: WALLET, to: OTHER, amount: 2_500_000, nonce: 2, time: '2026-11-20T10:00:00Z' }),
    ...over,
  }
}

export function block(height: number, transactions: Tx[] = []): BlockDetail {
  return {
    ...schemaFixture('index.BlockDetail', {
      height,
      hash: `B${String(height).padStart(63, '0')}`,
      time: '2026-11-20T10:00:00Z',
      proposer: 'C0FFEE00112233445566778899AABBCCDDEEFF00',
      txs: transactions.length,
      appHash: `A${String(height).padStart(63, '0')}`,
    }),
    transactions,
  }
}

export interface FakeChain {
  params: ChainParams
  status: ChainStatus
  accounts: Record<string, Account>
  blocks: BlockDetail[]
  txs: Tx[]
  validators: Validator[]
  /** Answers POST /api/v1/chain/txs; the default commits in block 8. */
  relay: (body: { type: string; message: Record<string, string>; signature: string }) => Response | TxResult
}

export function fakeChain(over: Partial<FakeChain> = {}): FakeChain {
  const txs = over.txs ?? [tx({ hash: HASH(1) })]
  return {
    params: PARAMS,
    status: schemaFixture('index.Status', {
      height: 7,
      time: '2026-11-20T10:00:00Z',
      appHash: 'AB',
      supply: 1_000_000_000_000,
      staked: 250_000_000_000,
      unbonding: 5_000_000,
      treasury: schemaFixture('index.Treasury', { address: TREASURY, balance: 400_000_000_000 }),
      accounts: 3,
      validators: 1,
    }),
    accounts: {
      [WALLET.toLowerCase()]: { address: WALLET, username: 'ada', balance: 1_234_500_000, staked: 2_000_000, unbonding: 0, nonce: 3 },
    },
    blocks: [block(7, txs.filter((t) => t.height === 7)), block(6)],
    txs,
    validators: [schemaFixture('index.Validator', { address: 'C0FFEE00112233445566778899AABBCCDDEEFF00', pubKey: 'pk', power: 10 })],
    relay: () => schemaFixture('chain.Result', { hash: HASH(99), height: 8 }),
    ...over,
  }
}

function paged<T>(items: T[], url: URL): Response {
  const page = Number(url.searchParams.get('page') ?? 1)
  const limit = Number(url.searchParams.get('limit') ?? 20)
  const res = json(items.slice((page - 1) * limit, page * limit))
  res.headers.set('X-Total-Count', String(items.length))
  return res
}

const notFound = () => json({ message: 'not found', code: 'not_found' }, 404)
const involves = (t: Tx, a: string) => t.from.toLowerCase() === a.toLowerCase() || t.to.toLowerCase() === a.toLowerCase()

/** Stubs fetch with the chain API over chain (mutable: a test may change it between polls). */
export function stubChain(chain: FakeChain) {
  return stubFetch(async (input, init) => {
    const url = new URL(String(input), 'http://node.test')
    const p = url.pathname
    if (init?.method === 'POST' && p === '/api/v1/chain/txs') {
      const out = chain.relay(JSON.parse(String(init.body)))
      return out instanceof Response ? out : json(out)
    }
    if (p === '/api/v1/chain/params') return json(chain.params)
    if (p === '/api/v1/chain/status') return json(chain.status)
    if (p === '/api/v1/chain/validators') return json(chain.validators)
    if (p === '/api/v1/chain/blocks') return paged<Block>(chain.blocks.map(({ transactions: _t, ...b }) => b), url)
    let m = /^\/api\/v1\/chain\/blocks\/(\d+)$/.exec(p)
    if (m) {
      const found = chain.blocks.find((b) => b.height === Number(m![1]))
      return found ? json(found) : notFound()
    }
    if (p === '/api/v1/chain/txs') {
      const type = url.searchParams.get('type')
      const address = url.searchParams.get('address')
      return paged(chain.txs.filter((t) => (!type || t.type === type) && (!address || involves(t, address))), url)
    }
    m = /^\/api\/v1\/chain\/txs\/([^/]+)$/.exec(p)
    if (m) {
      const found = chain.txs.find((t) => t.hash === decodeURIComponent(m![1]))
      return found ? json(found) : notFound()
    }
    m = /^\/api\/v1\/accounts\/([^/]+)(\/txs)?$/.exec(p)
    if (m) {
      const address = decodeURIComponent(m[1])
      if (m[2]) return paged(chain.txs.filter((t) => involves(t, address)), url)
      return json(chain.accounts[address.toLowerCase()] ?? { address, username: '', balance: 0, staked: 0, unbonding: 0, nonce: 0 })
    }
    return notFound()
  })
}

/** The requests made to path (no query string), as URL objects. */
export function callsTo(fetchMock: ReturnType<typeof stubFetch>, path: string, method = 'GET'): URL[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://node.test').pathname === path)
    .map(([input]) => new URL(String(input), 'http://node.test'))
}

export interface FakeWallet {
  requests: RpcCall[]
  /** The typed data of each eth_signTypedData_v4, parsed. */
  signed: () => SignedTypedData[]
}

/**
 * Installs an injected EIP-1193 wallet (window.ethereum) whose account is
 * WALLET. It signs with a fixed signature, or refuses like a user pressing
 * Reject (code 4001) when reject is set.
 */
export function installWallet({ reject = false } = {}): FakeWallet {
  const { provider, calls } = fakeProvider({
    eth_accounts: () => [WALLET],
    eth_requestAccounts: () => [WALLET],
    eth_signTypedData_v4: () => (reject ? userRejected() : SIGNATURE),
  })
  injectWallet(provider)
  return { requests: calls, signed: () => signedTypedData(calls) }
}
