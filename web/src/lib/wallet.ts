// The browser wallet: discovery (EIP-6963, then the legacy injected
// window.ethereum), connection and signing over EIP-1193. viem is imported
// lazily, only when something is signed, so pages that never sign do not
// pay for it.

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>
}

export interface WalletInfo {
  /** EIP-6963 rdns (e.g. "io.metamask"), or "injected" for window.ethereum. */
  id: string
  name: string
  icon?: string
  provider: Eip1193Provider
}

export type Hex = `0x${string}`

interface AnnounceDetail {
  info: { uuid: string; name: string; icon: string; rdns: string }
  provider: Eip1193Provider
}

const WALLET_ID_KEY = 'wallet-id'

/** Finds the wallets the browser offers. EIP-6963 wallets answer a request
 * event; a legacy injected provider is added when no announced wallet is
 * the same object. */
export function discoverWallets(waitMs = 150): Promise<WalletInfo[]> {
  return new Promise((resolve) => {
    const found: WalletInfo[] = []
    const onAnnounce = (e: Event) => {
      const d = (e as CustomEvent<AnnounceDetail>).detail
      if (!d?.provider || found.some((w) => w.id === d.info.rdns)) return
      found.push({ id: d.info.rdns, name: d.info.name, icon: d.info.icon, provider: d.provider })
    }
    window.addEventListener('eip6963:announceProvider', onAnnounce)
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    setTimeout(() => {
      window.removeEventListener('eip6963:announceProvider', onAnnounce)
      const injected = (window as { ethereum?: Eip1193Provider }).ethereum
      if (injected && !found.some((w) => w.provider === injected)) {
        found.push({ id: 'injected', name: 'Browser wallet', provider: injected })
      }
      resolve(found)
    }, waitMs)
  })
}

/** Asks the wallet for its account (the wallet may show a prompt) and
 * remembers which wallet was chosen, for later page loads. */
export async function connectWallet(wallet: WalletInfo): Promise<Hex> {
  const accounts = (await wallet.provider.request({ method: 'eth_requestAccounts' })) as Hex[]
  if (!accounts?.length) throw new Error('The wallet returned no account')
  localStorage.setItem(WALLET_ID_KEY, wallet.id)
  return accounts[0]
}

/** The wallet chosen at sign-in, found again after a full page load. */
export async function currentWallet(): Promise<WalletInfo | null> {
  const wallets = await discoverWallets()
  const id = localStorage.getItem(WALLET_ID_KEY)
  return wallets.find((w) => w.id === id) ?? wallets[0] ?? null
}

export function forgetWallet() {
  localStorage.removeItem(WALLET_ID_KEY)
}

/** personal_sign of a text message (the SIWE message). */
export async function signMessage(wallet: WalletInfo, account: Hex, message: string): Promise<Hex> {
  const { createWalletClient, custom } = await import('viem')
  const client = createWalletClient({ account, transport: custom(wallet.provider) })
  return client.signMessage({ account, message })
}

export interface TypedData {
  domain: { name: string; version: string; chainId: number }
  types: Record<string, { name: string; type: string }[]>
  primaryType: string
  message: Record<string, unknown>
}

/** eth_signTypedData_v4 of an EIP-712 transaction. */
export async function signTypedData(wallet: WalletInfo, account: Hex, data: TypedData): Promise<Hex> {
  const { createWalletClient, custom } = await import('viem')
  const client = createWalletClient({ account, transport: custom(wallet.provider) })
  // viem derives EIP712Domain from the domain itself and refuses it in types.
  const { EIP712Domain: _domain, ...types } = data.types
  return client.signTypedData({ account, domain: data.domain, types, primaryType: data.primaryType, message: data.message })
}
