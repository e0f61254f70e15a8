// Sign-In with Ethereum (EIP-4361): connect, sign the server's nonce in a
// SIWE message, and trade the signature for a session. viem's SIWE helpers
// load only here, when someone actually signs in.
import { NotFoundError } from '@/components/QueryState'
import { getChainParams } from '@/lib/chain/api'
import { authorizeNode, type DelegationNeed, getDelegationNeed } from '@/lib/chain/delegation'
import { authNonce, postSiwe, postTwoFactor, type Session, type SiweAnswer } from '@/lib/authApi'
import { useDelegationStore } from '@/stores/delegation'
import { applySession } from './session'
import { connectWallet, type Hex, signMessage, type WalletInfo } from '@/lib/wallet'

/** The sign-in's steps: the SIWE prompt, then (when this node needs it) the delegation's second prompt. */
export type SignInStep = 'connecting' | 'signing' | 'verifying' | 'authorizing'

export const SIWE_STATEMENT = 'Sign in to dForge'

export interface SiweFields {
  address: Hex
  chainId: number
  nonce: string
  issuedAt?: Date
}

/**
 * The EIP-4361 message for this site: domain and URI are where the page is
 * served from, which is what the server checks them against.
 */
export async function buildSiweMessage({ address, chainId, nonce, issuedAt = new Date() }: SiweFields): Promise<string> {
  const [{ createSiweMessage }, { getAddress }] = await Promise.all([import('viem/siwe'), import('viem')])
  return createSiweMessage({
    // EIP-4361 wants the EIP-55 checksummed address; wallets may answer in lower case.
    address: getAddress(address),
    chainId,
    domain: window.location.host,
    uri: window.location.origin,
    version: '1',
    nonce,
    issuedAt,
    statement: SIWE_STATEMENT,
  })
}

export type SignInResult = { done: true } | { done: false; challenge: string }

function isSession(a: SiweAnswer): a is Session {
  return !('twoFactorRequired' in a && a.twoFactorRequired)
}

/**
 * Runs the wallet part of sign-in, reporting each step. Ends signed in, or
 * with the challenge the second factor must answer.
 */
export async function signInWithWallet(wallet: WalletInfo, onStep: (step: SignInStep) => void): Promise<SignInResult> {
  onStep('connecting')
  const address = await connectWallet(wallet)
  const [params, { nonce }] = await Promise.all([getChainParams(), authNonce()])
  const message = await buildSiweMessage({ address, chainId: params.eip712Domain.chainId, nonce })
  onStep('signing')
  const signature = await signMessage(wallet, address, message)
  onStep('verifying')
  const answer = await postSiwe(message, signature)
  if (!isSession(answer)) return { done: false, challenge: answer.challenge }
  applySession(answer)
  return { done: true }
}

/** Answers the second-factor challenge with a TOTP or recovery code and signs in. */
export async function completeTwoFactor(challenge: string, code: string): Promise<void> {
  applySession(await postTwoFactor(challenge, code.replace(/\s+/g, '')))
}

export type AuthorizeResult = 'authorized' | 'notNeeded'

/**
 * The sign-in's second step: asks the server whether this node holds a live
 * delegation from the user for every scope, and when it does not, has the
 * wallet sign the Delegate transaction the server prepared (onAsk runs just
 * before the wallet prompt, with what it will ask). A node without
 * delegations (404: an older server) needs none. A refusal or failure
 * leaves the user signed in, with the app-wide notice that writes need it.
 */
export async function authorizeThisNode(onAsk?: (need: DelegationNeed) => void): Promise<AuthorizeResult> {
  const store = useDelegationStore.getState()
  try {
    const need = await getDelegationNeed()
    if (!need.needed) {
      store.clear()
      return 'notNeeded'
    }
    onAsk?.(need)
    await authorizeNode(need)
    store.clear()
    return 'authorized'
  } catch (err) {
    if (err instanceof NotFoundError) {
      store.clear()
      return 'notNeeded'
    }
    store.declined()
    throw err
  }
}
