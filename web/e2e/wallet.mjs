// A headless wallet for browser tests: an EIP-1193 provider injected into
// the page and backed by a real private key held in this Node process
// (viem's privateKeyToAccount). It is offered both as window.ethereum and
// through EIP-6963 announcements, like MetaMask. Every signature it makes
// is a real secp256k1 signature the node verifies.
import { privateKeyToAccount } from 'viem/accounts'

// For scripts outside web/ (bench/web.mjs), which cannot resolve viem themselves.
export { generatePrivateKey } from 'viem/accounts'

export const TEST_WALLET_RDNS = 'org.dforge.testwallet'
export const TEST_WALLET_NAME = 'Test Wallet'

/** Makes a wallet for `privateKey`; `install(page)` injects it before any page script runs. */
export function headlessWallet(privateKey, { chainId = 7771 } = {}) {
  const account = privateKeyToAccount(privateKey)
  const wallet = {
    address: account.address,
    /** Every request the page made, in order ({method, params}). */
    requests: [],
    /** When set, the next signature request is refused as a user would. */
    rejectNext: false,
    async handle(method, params) {
      wallet.requests.push({ method, params })
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [account.address]
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`
        case 'personal_sign':
          return wallet.sign(() => account.signMessage({ message: { raw: params[0] } }))
        case 'eth_signTypedData_v4': {
          const data = typeof params[1] === 'string' ? JSON.parse(params[1]) : params[1]
          const { EIP712Domain: _domain, ...types } = data.types
          return wallet.sign(() => account.signTypedData({ domain: data.domain, types, primaryType: data.primaryType, message: data.message }))
        }
        default:
          throw rpcError(4200, `${method} is not supported by the test wallet`)
      }
    },
    async sign(fn) {
      if (wallet.rejectNext) {
        wallet.rejectNext = false
        throw rpcError(4001, 'User rejected the request.')
      }
      return fn()
    },
    async install(page) {
      await page.exposeFunction('__testWalletRequest', async (method, params) => {
        try {
          return { result: await wallet.handle(method, params) }
        } catch (err) {
          return { error: { code: err.code ?? -32603, message: err.message } }
        }
      })
      await page.addInitScript(({ name, rdns }) => {
        const provider = {
          async request({ method, params }) {
            const res = await window.__testWalletRequest(method, params ?? [])
            if (res.error) throw Object.assign(new Error(res.error.message), { code: res.error.code })
            return res.result
          },
          on() {},
          removeListener() {},
        }
        window.ethereum = provider
        const icon = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" fill="#5b5bd6"/></svg>')
        const detail = Object.freeze({ info: { uuid: '6f1c0a52-8d1e-4e8a-9b1e-0d5f6c1f2a10', name, icon, rdns }, provider })
        const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
        window.addEventListener('eip6963:requestProvider', announce)
        announce()
      }, { name: TEST_WALLET_NAME, rdns: TEST_WALLET_RDNS })
    },
  }
  return wallet
}

function rpcError(code, message) {
  return Object.assign(new Error(message), { code })
}
