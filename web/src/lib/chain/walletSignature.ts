// Sensitive actions (deleting or transferring a repository, deleting an
// organization, adding an SSH key, changing an organization's Owners) are
// never delegated: the node's API answers them 403 wallet_signature_required
// with the Forge transaction to sign. withWalletSignature has the user's own
// wallet sign it and relays it, so the flow carries on as if the call had
// succeeded.
import i18n from 'i18next'
import { ApiError, type SignRequest } from '@/lib/http'
import { useWalletPromptStore } from '@/stores/walletPrompt'
import { getChainParams, type TxResult } from './api'
import { describeTxError, signAndRelay, typedMessage } from './tx'

export const WALLET_SIGNATURE_REQUIRED = 'wallet_signature_required'

/** The sign request a refusal carries, when it is one asking for the user's own signature. */
export function signRequestOf(err: unknown): SignRequest | null {
  return err instanceof ApiError && err.status === 403 && err.code === WALLET_SIGNATURE_REQUIRED && err.sign?.message ? err.sign : null
}

/** A failed own-signature step, explained in the interface language; the wallet's or server's error is kept as cause. */
export class WalletSignatureError extends Error {}

/** err, or for a transaction that did not go through (declined, no wallet, refused by the chain) an error saying so in the interface language. */
export function explainWalletError(err: unknown): Error {
  const detail = describeTxError(err)
  const t = (key: string, values?: Record<string, string>) => i18n.t(`walletSignature.${key}`, { ns: 'common', ...values })
  switch (detail.kind) {
    case 'rejected':
      return new WalletSignatureError(t('rejected'), { cause: err })
    case 'noWallet':
      return new WalletSignatureError(t('noWallet'), { cause: err })
    case 'failed':
      return new WalletSignatureError(t('failed', { log: detail.log }), { cause: err })
    default:
      return err instanceof Error ? err : new Error(String(err))
  }
}

/** Signs what the server asked the user's own wallet to sign, and relays it; resolves once it is in a block. */
export async function signWithOwnWallet(request: SignRequest): Promise<TxResult> {
  const prompt = useWalletPromptStore.getState()
  prompt.opened()
  try {
    const params = await getChainParams()
    const type = request.type || 'Forge'
    const message = await typedMessage(params, type, request.message)
    return await signAndRelay(params, message.from, type, message)
  } catch (err) {
    throw explainWalletError(err)
  } finally {
    useWalletPromptStore.getState().closed()
  }
}

/**
 * Runs call; when the server answers that the action needs the user's own
 * signature, has the wallet sign it and relays it instead. Resolves to
 * call's answer, or undefined when the wallet's transaction did the work
 * (a relayed transaction has no resource to answer with).
 */
export async function withWalletSignature<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call()
  } catch (err) {
    const request = signRequestOf(err)
    if (!request) throw err
    await signWithOwnWallet(request)
    return undefined
  }
}
