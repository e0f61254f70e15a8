// Sensitive actions (deleting or transferring a repository, deleting an
// organization, adding an SSH key, changing an organization's Owners) are
// never delegated: the node's API answers them 403 wallet_signature_required
// with the Forge transaction to sign. withWalletSignature has the user's own
// wallet sign it and sends the same request again with it (the
// X-Dforge-Signed-Tx header), so the node does what was asked, side effects
// and answer included, under the user's own signature.
import i18n from 'i18next'
import { ApiError, withSignedTx, type SignRequest } from '@/lib/http'
import { useWalletPromptStore } from '@/stores/walletPrompt'
import { getChainParams } from './api'
import { describeTxError, signTyped, typedMessage } from './tx'

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

/** Has the user's own wallet sign what the server asked it to sign, and returns the signed envelope. */
export async function signEnvelope(request: SignRequest): Promise<{ type: string; message: Record<string, string>; signature: string }> {
  const prompt = useWalletPromptStore.getState()
  prompt.opened()
  try {
    const params = await getChainParams()
    const type = request.type || 'Forge'
    const message = await typedMessage(params, type, request.message)
    return { type, message, signature: await signTyped(params, message.from, type, message) }
  } catch (err) {
    throw explainWalletError(err)
  } finally {
    useWalletPromptStore.getState().closed()
  }
}

/**
 * Runs call; when the server answers that the action needs the user's own
 * signature, has the wallet sign it and runs call again carrying it, so
 * the answer is the action's own. Resolves to call's answer (undefined
 * kept in the type for callers written for a relayed transaction).
 */
export async function withWalletSignature<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call()
  } catch (err) {
    const request = signRequestOf(err)
    if (!request) throw err
    const envelope = await signEnvelope(request)
    return await withSignedTx(envelope, call)
  }
}
