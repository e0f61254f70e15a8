import { NotFoundError } from '@/components/QueryState'
import { noteResponse } from '@/lib/savedCopy'
import { useAuthStore } from '@/stores/auth'
import { useDelegationStore } from '@/stores/delegation'

/** What a 403 wallet_signature_required asks the user's own wallet to sign (an EIP-712 message of the given primary type). */
export interface SignRequest {
  type: string
  message: Record<string, unknown>
}

/** An API error with the server's stable code and readable message. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly field?: string,
    /** Seconds to wait before trying again, from a 429's Retry-After. */
    readonly retryAfter?: number,
    /** A sensitive action's transaction for the user's own wallet (code wallet_signature_required). */
    readonly sign?: SignRequest,
  ) {
    super(message)
  }
}

/** The code of a write refused because this node's delegation from the user ran out or was revoked. */
export const NOT_DELEGATED = 'not_delegated'

/**
 * The ApiError for a failed response, from its JSON {message, code, field}
 * body when it has one. A 401 not_delegated also raises the app-wide
 * "sign in again" prompt, wherever the refused write was made.
 */
export async function apiError(res: Response): Promise<ApiError> {
  const retry = Number(res.headers.get('Retry-After'))
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined
  let err: ApiError
  try {
    const body = (await res.json()) as { message?: string; code?: string; field?: string; sign?: SignRequest }
    err = new ApiError(body.message ?? res.statusText, res.status, body.code ?? 'unknown', body.field, retryAfter, body.sign)
  } catch {
    err = new ApiError(res.statusText, res.status, 'unknown', undefined, retryAfter)
  }
  return noteRefusal(err)
}

/** Raises the app-wide "sign in again" prompt when err is a write refused as not delegated; for answers read without apiError (an upload's XHR). */
export function noteRefusal(err: ApiError): ApiError {
  if (err.status === 401 && err.code === NOT_DELEGATED) useDelegationStore.getState().expired(err.message)
  return err
}

async function errorFrom(res: Response): Promise<Error> {
  if (res.status === 404) return new NotFoundError(`not found: ${res.url}`)
  return apiError(res)
}

/** A query retry rule: a missing document will not appear on a second try; other failures get one retry. */
export function retryUnlessNotFound(failures: number, error: Error): boolean {
  return !(error instanceof NotFoundError) && failures < 1
}

/**
 * fetch for the API: the session cookie goes along (same origin only), and a
 * write carries the session's CSRF token, which the server demands of every
 * cookie-authenticated write.
 */
export function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase()
  const headers = new Headers(init.headers)
  if (!headers.has('Accept')) headers.set('Accept', 'application/json')
  const csrf = useAuthStore.getState().csrfToken
  if (csrf && method !== 'GET' && method !== 'HEAD') headers.set('X-CSRF-Token', csrf)
  if (signedTx && method !== 'GET' && method !== 'HEAD') {
    headers.set(SIGNED_TX_HEADER, signedTx)
    signedTx = null
  }
  return fetch(path, { ...init, method, headers, credentials: 'same-origin' }).then((res) => {
    noteResponse(res)
    return res
  })
}

/** Carries a transaction the user's own wallet signed for a request's action (see withSignedTx). */
export const SIGNED_TX_HEADER = 'X-Dforge-Signed-Tx'

let signedTx: string | null = null

/**
 * Runs call with envelope (a signed transaction's {type, message,
 * signature}) attached to the first write it makes, as the node asks
 * after a 403 wallet_signature_required: the same request, sent again
 * with the user's own signature, does what it asked, answer included.
 */
export async function withSignedTx<T>(envelope: unknown, call: () => Promise<T>): Promise<T> {
  const bytes = new TextEncoder().encode(JSON.stringify(envelope))
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  signedTx = btoa(binary)
  try {
    return await call()
  } finally {
    signedTx = null
  }
}

/** The JSON body of a successful response, or undefined for one without a body (204). */
async function bodyOf<T>(res: Response): Promise<T> {
  if (!res.ok) throw await errorFrom(res)
  if (res.status === 204) return undefined as T
  const text = await res.text()
  return (text ? JSON.parse(text) : undefined) as T
}

export async function getJSON<T>(path: string, init: RequestInit = {}): Promise<T> {
  return bodyOf<T>(await apiFetch(path, init))
}

function sendJSON<T>(method: string) {
  return async (path: string, body?: unknown): Promise<T> => {
    const init: RequestInit = { method }
    if (body !== undefined) {
      init.headers = { 'Content-Type': 'application/json' }
      init.body = JSON.stringify(body)
    }
    return bodyOf<T>(await apiFetch(path, init))
  }
}

export async function postJSON<T>(path: string, body?: unknown): Promise<T> {
  return sendJSON<T>('POST')(path, body)
}

export async function putJSON<T>(path: string, body: unknown): Promise<T> {
  return sendJSON<T>('PUT')(path, body)
}

export async function patchJSON<T>(path: string, body: unknown): Promise<T> {
  return sendJSON<T>('PATCH')(path, body)
}

/** DELETE; the API answers 204 with no body. */
export async function deleteJSON(path: string): Promise<void> {
  return sendJSON<void>('DELETE')(path)
}

/** An error message for a failed write, from the server's message when it sent one. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
