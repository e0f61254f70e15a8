import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/http'
import { describeError } from './errors'

describe('describeError', () => {
  it('recognises a rejection, also wrapped the way viem wraps it', async () => {
    const { UserRejectedRequestError } = await import('viem')
    expect(describeError(Object.assign(new Error('User rejected the request.'), { code: 4001 }))).toEqual({ key: 'errors.rejected' })
    expect(describeError(new UserRejectedRequestError(new Error('denied')))).toEqual({ key: 'errors.rejected' })
    expect(describeError(new Error('outer', { cause: { code: 4001 } }))).toEqual({ key: 'errors.rejected' })
  })

  it('tells a pending request and a wallet on another chain', () => {
    expect(describeError(Object.assign(new Error('already pending'), { code: -32002 }))).toEqual({ key: 'errors.pending' })
    expect(describeError(new Error('Provided chainId "7771" must match the active chainId "1"'))).toEqual({ key: 'errors.wrongNetwork' })
  })

  it('explains server answers by code, falling back to the message', () => {
    expect(describeError(new ApiError('bad domain', 401, 'siwe_domain_mismatch'))).toEqual({ key: 'errors.domainMismatch' })
    expect(describeError(new ApiError('slow', 429, 'rate_limited', undefined, 7))).toEqual({ key: 'errors.rateLimitedFor', values: { seconds: 7 } })
    expect(describeError(new ApiError('slow', 429, 'rate_limited'))).toEqual({ key: 'errors.rateLimited' })
    expect(describeError(new ApiError('name is reserved', 400, 'reserved'))).toEqual({ key: 'errors.server', values: { message: 'name is reserved' } })
  })

  it('calls a failed fetch offline and anything else by its message', () => {
    expect(describeError(new TypeError('Failed to fetch'))).toEqual({ key: 'errors.offline' })
    expect(describeError(new Error('The wallet returned no account'))).toEqual({ key: 'errors.unknown', values: { message: 'The wallet returned no account' } })
  })
})
