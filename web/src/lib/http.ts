import { NotFoundError } from '@/components/QueryState'

/** An API error with the server's stable code and readable message. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

/** The ApiError for a failed response, from its JSON {message, code, field} body when it has one. */
export async function apiError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { message?: string; code?: string; field?: string }
    return new ApiError(body.message ?? res.statusText, res.status, body.code ?? 'unknown', body.field)
  } catch {
    return new ApiError(res.statusText, res.status, 'unknown')
  }
}

async function errorFrom(res: Response): Promise<Error> {
  if (res.status === 404) return new NotFoundError(`not found: ${res.url}`)
  return apiError(res)
}

/** A query retry rule: a missing document will not appear on a second try; other failures get one retry. */
export function retryUnlessNotFound(failures: number, error: Error): boolean {
  return !(error instanceof NotFoundError) && failures < 1
}

export async function getJSON<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } })
  if (!res.ok) throw await errorFrom(res)
  return (await res.json()) as T
}

export async function postJSON<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw await errorFrom(res)
  return (await res.json()) as T
}
