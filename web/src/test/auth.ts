// Test doubles for sign-in (imported by tests only): the server's user in its
// JSON shape and a fake of the API. The wallet itself is @/test/wallet's.
import { json, stubFetch } from '@/test/render'
import { ADDRESS } from '@/test/wallet'
import type { ServerUser } from '@/lib/authApi'
import { schemaFixture } from './schemaFixture'

export function serverUser(over: Partial<ServerUser> = {}): ServerUser {
  return {
    ...schemaFixture('User', {
      id: 1,
      login: 'ada',
      full_name: 'Ada Lovelace',
      email: 'ada@example.org',
      description: 'Analyst',
      location: 'London',
      website: 'https://ada.example.org',
      created: '2026-01-02T03:04:05Z',
      wallet_address: ADDRESS,
    }),
    ...over,
  }
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
