import { beforeAll, describe, expect, it } from 'vitest'
import { ApiError, deleteJSON } from '@/lib/http'
import { useWalletPromptStore } from '@/stores/walletPrompt'
import { fakeApi } from '@/test/auth'
import { json } from '@/test/render'
import { ADDRESS, announceWallet, CHAIN_PARAMS, fakeProvider, signedTypedData, userRejected } from '@/test/wallet'
import { WalletSignatureError, withWalletSignature } from './walletSignature'

beforeAll(async () => {
  await import('viem')
})

const FORGE = {
  from: ADDRESS.toLowerCase(),
  actor: ADDRESS.toLowerCase(),
  action: 'repo.delete',
  payload: '{"repo":7}',
  nonce: 9,
}

const refusal = () => json({ code: 'wallet_signature_required', message: 'repo.delete needs your own wallet signature', sign: { type: 'Forge', message: FORGE } }, 403)

describe('withWalletSignature', () => {
  it('passes an ordinary answer through untouched', async () => {
    fakeApi({ 'DELETE /api/v1/repos/ada/demo': () => new Response(null, { status: 204 }) })
    await expect(withWalletSignature(() => deleteJSON('/api/v1/repos/ada/demo'))).resolves.toBeUndefined()
  })

  it('has the wallet sign the Forge transaction the server asked for and sends the request again with it', async () => {
    const api = fakeApi({
      'DELETE /api/v1/repos/ada/demo': (req) => (req.headers.get('X-Dforge-Signed-Tx') ? new Response(null, { status: 204 }) : refusal()),
      'GET /api/v1/chain/params': () => CHAIN_PARAMS,
    })
    const opened: number[] = []
    const wallet = fakeProvider({
      eth_signTypedData_v4: () => {
        opened.push(useWalletPromptStore.getState().open)
        return `0x${'11'.repeat(65)}`
      },
    })
    announceWallet('Alpha Wallet', wallet.provider)
    await expect(withWalletSignature(() => deleteJSON('/api/v1/repos/ada/demo'))).resolves.toBeUndefined()

    const [typed] = signedTypedData(wallet.calls)
    expect(typed.primaryType).toBe('Forge')
    expect(typed.message).toMatchObject({ action: 'repo.delete', payload: '{"repo":7}', nonce: '9' })
    const [first, again] = api.find('DELETE', '/api/v1/repos/ada/demo')
    expect(first.headers.get('X-Dforge-Signed-Tx')).toBeNull()
    expect(JSON.parse(atob(again.headers.get('X-Dforge-Signed-Tx') ?? ''))).toEqual({
      type: 'Forge',
      message: { from: ADDRESS, actor: ADDRESS, action: 'repo.delete', payload: '{"repo":7}', nonce: '9' },
      signature: `0x${'11'.repeat(65)}`,
    })
    expect(api.find('POST', '/api/v1/chain/txs')).toHaveLength(0)
    // The shell said why the wallet asked while it did, and no longer.
    expect(opened).toEqual([1])
    expect(useWalletPromptStore.getState().open).toBe(0)
  })

  it('explains a declined signature, keeping the wallet error as cause', async () => {
    const api = fakeApi({ 'DELETE /api/v1/repos/ada/demo': refusal, 'GET /api/v1/chain/params': () => CHAIN_PARAMS })
    announceWallet('Alpha Wallet', fakeProvider({ eth_signTypedData_v4: () => userRejected() }).provider)
    const err = await withWalletSignature(() => deleteJSON('/api/v1/repos/ada/demo')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(WalletSignatureError)
    expect((err as Error).message).toBe('You declined the signature in your wallet, so nothing was done.')
    expect(api.find('POST', '/api/v1/chain/txs')).toHaveLength(0)
    expect(useWalletPromptStore.getState().open).toBe(0)
  })

  it('says so when there is no wallet to sign with', async () => {
    fakeApi({ 'DELETE /api/v1/repos/ada/demo': refusal, 'GET /api/v1/chain/params': () => CHAIN_PARAMS })
    const err = await withWalletSignature(() => deleteJSON('/api/v1/repos/ada/demo')).catch((e: unknown) => e)
    expect((err as Error).message).toBe("This action needs your wallet's signature, but no wallet was found in this browser.")
  })

  it('leaves any other refusal to the caller', async () => {
    fakeApi({ 'DELETE /api/v1/repos/ada/demo': () => json({ code: 'forbidden', message: 'not yours' }, 403) })
    const err = await withWalletSignature(() => deleteJSON('/api/v1/repos/ada/demo')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).code).toBe('forbidden')
  })
})
