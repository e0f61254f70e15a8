import { act } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { NotFoundError } from '@/components/QueryState'
import { useAuthStore } from '@/stores/auth'
import { useDelegationStore } from '@/stores/delegation'
import { json, stubFetch } from '@/test/render'
import { ApiError, deleteJSON, getJSON, patchJSON, postJSON, putJSON } from './http'

function lastInit(fetchMock: ReturnType<typeof stubFetch>): RequestInit {
  return fetchMock.mock.calls.at(-1)![1] as RequestInit
}

describe('http', () => {
  it('sends the session CSRF token on every write, never on reads, with same-origin credentials', async () => {
    const fetchMock = stubFetch(async () => json({ ok: true }))
    act(() => useAuthStore.getState().startSession({ username: 'ada' }, 'csrf-abc'))

    await getJSON('/api/v1/user')
    const get = lastInit(fetchMock)
    expect(new Headers(get.headers).get('X-CSRF-Token')).toBeNull()
    expect(get.credentials).toBe('same-origin')

    for (const write of [() => postJSON('/a', { x: 1 }), () => putJSON('/a', {}), () => patchJSON('/a', {}), () => deleteJSON('/a')]) {
      await write()
      const init = lastInit(fetchMock)
      expect(new Headers(init.headers).get('X-CSRF-Token'), init.method).toBe('csrf-abc')
      expect(init.credentials).toBe('same-origin')
    }
    expect(fetchMock.mock.calls.map(([, init]) => (init as RequestInit).method)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
  })

  it('sends no CSRF header while signed out', async () => {
    const fetchMock = stubFetch(async () => json({}))
    await postJSON('/api/v1/contact', { name: 'x' })
    const init = lastInit(fetchMock)
    expect(new Headers(init.headers).get('X-CSRF-Token')).toBeNull()
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json')
    expect(init.body).toBe('{"name":"x"}')
  })

  it('answers undefined for 204 and reads errors with field and Retry-After', async () => {
    stubFetch(async (input) => {
      const url = String(input)
      if (url === '/empty') return new Response(null, { status: 204 })
      if (url === '/missing') return json({ message: 'no', code: 'not_found' }, 404)
      if (url === '/busy') return new Response('{"message":"slow down","code":"rate_limited"}', { status: 429, headers: { 'Retry-After': '12' } })
      return json({ message: 'website must start with http', code: 'invalid_field', field: 'website' }, 422)
    })
    expect(await deleteJSON('/empty')).toBeUndefined()
    await expect(getJSON('/missing')).rejects.toBeInstanceOf(NotFoundError)
    const invalid = await patchJSON('/bad', {}).catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(ApiError)
    expect(invalid).toMatchObject({ status: 422, code: 'invalid_field', field: 'website', message: 'website must start with http' })
    expect(await postJSON('/busy').catch((e: unknown) => e)).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 12 })
  })

  it('reads the transaction a refusal asks the wallet to sign', async () => {
    const sign = { type: 'Forge', message: { from: '0xabc', actor: '0xabc', action: 'org.delete', payload: '{}', nonce: 2 } }
    stubFetch(async () => json({ message: 'needs your own signature', code: 'wallet_signature_required', sign }, 403))
    expect(await deleteJSON('/api/v1/orgs/acme').catch((e: unknown) => e)).toMatchObject({ status: 403, code: 'wallet_signature_required', sign })
    expect(useDelegationStore.getState().status).toBe('ok')
  })

  it('raises the app-wide prompt when a write is refused as not delegated, and only then', async () => {
    stubFetch(async (input) =>
      String(input) === '/gone' ? json({ message: 'delegation expired', code: 'not_delegated' }, 401) : json({ message: 'sign in', code: 'unauthenticated' }, 401),
    )
    await postJSON('/other').catch(() => {})
    expect(useDelegationStore.getState().status).toBe('ok')
    await postJSON('/gone').catch(() => {})
    expect(useDelegationStore.getState()).toMatchObject({ status: 'expired', message: 'delegation expired' })
    act(() => useDelegationStore.getState().clear())
  })
})
