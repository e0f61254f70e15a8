import { useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'

/**
 * The node's OpenAPI document: generated from internal/api by `make openapi`
 * (tools/openapi), checked in as web/public/openapi.json and served
 * with the app at /openapi.json. A Go test fails when it and the code differ.
 */
export const OPENAPI_URL = '/openapi.json'

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  description?: string
  schema?: { type?: string }
}

export interface OpenApiOperation {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  parameters?: OpenApiParameter[]
  requestBody?: unknown
  /** The credentials it takes; an empty requirement ({}) among them means anonymous calls work too. */
  security?: unknown[]
  /** The least scope an access token needs; set on every operation that needs sign-in. */
  'x-dforge-scope'?: string
  /** Only the user the path names may call it. */
  'x-dforge-owner-only'?: boolean
}

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description?: string }
  paths: Record<string, Record<string, OpenApiOperation | unknown>>
}

export function useOpenApi() {
  // no-cache: revalidate (the file has an ETag), so a node upgrade shows at once.
  return useQuery({ queryKey: ['openapi'], queryFn: () => getJSON<OpenApiDocument>(OPENAPI_URL, { cache: 'no-cache' }) })
}

/** Who may call an endpoint: anyone, a signed-in user, or only the user the path names. */
export type Access = 'public' | 'signedIn' | 'owner'

/** One operation, flattened for the reference page. */
export interface Endpoint {
  id: string
  method: string
  path: string
  /** The first path segment after /api/v1 (or /api). */
  group: string
  /** The path up to and including the group segment, e.g. /api/v1/repos. */
  groupPath: string
  summary: string
  description: string
  parameters: OpenApiParameter[]
  body: boolean
  access: Access
  scope: string
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace']

/** The group of a path: the first segment after /api/v1, or after /api outside it. */
export function groupOf(path: string): { group: string; groupPath: string } {
  const base = path.startsWith('/api/v1/') ? '/api/v1' : path.startsWith('/api/') ? '/api' : ''
  const group = path.slice(base.length + 1).split('/')[0] ?? ''
  if (!group || group.startsWith('{')) return { group: base || '/', groupPath: base || '/' }
  return { group, groupPath: `${base}/${group}` }
}

function isOperation(v: unknown): v is OpenApiOperation {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * Whether an operation may be called without credentials: it lists no
 * requirement, or the empty one ({}) beside the credentials it also takes.
 */
function anonymous(security: unknown[] | undefined): boolean {
  if (!security || security.length === 0) return true
  return security.some((r) => typeof r === 'object' && r !== null && Object.keys(r).length === 0)
}

/** Every operation of the document, ordered by path, then method (GET first). */
export function endpointsOf(doc: OpenApiDocument): Endpoint[] {
  const out: Endpoint[] = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [m, op] of Object.entries(item ?? {})) {
      const method = m.toLowerCase()
      if (!METHODS.includes(method) || !isOperation(op)) continue
      const signedIn = op['x-dforge-scope'] !== undefined || !anonymous(op.security)
      out.push({
        id: op.operationId ?? `${method}-${path}`,
        method: method.toUpperCase(),
        path,
        ...groupOf(path),
        summary: op.summary ?? '',
        description: op.description ?? '',
        parameters: op.parameters ?? [],
        body: op.requestBody !== undefined,
        access: !signedIn ? 'public' : op['x-dforge-owner-only'] ? 'owner' : 'signedIn',
        scope: op['x-dforge-scope'] ?? (signedIn ? 'read' : ''),
      })
    }
  }
  return out.sort((a, b) =>
    a.path === b.path ? METHODS.indexOf(a.method.toLowerCase()) - METHODS.indexOf(b.method.toLowerCase()) : a.path < b.path ? -1 : 1,
  )
}

/**
 * The endpoints matching every word of the query, each found in the method,
 * the path, the summary or the description (case does not matter).
 */
export function filterEndpoints(list: Endpoint[], query: string): Endpoint[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return list
  return list.filter((e) => {
    const text = `${e.method} ${e.path} ${e.summary} ${e.description} ${e.id}`.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}

export interface EndpointGroup {
  group: string
  groupPath: string
  endpoints: Endpoint[]
}

/** Endpoints by group, the groups in alphabetical order of their paths. */
export function groupEndpoints(list: Endpoint[]): EndpointGroup[] {
  const groups = new Map<string, EndpointGroup>()
  for (const e of list) {
    let g = groups.get(e.groupPath)
    if (!g) {
      g = { group: e.group, groupPath: e.groupPath, endpoints: [] }
      groups.set(e.groupPath, g)
    }
    g.endpoints.push(e)
  }
  return [...groups.values()].sort((a, b) => (a.groupPath < b.groupPath ? -1 : a.groupPath > b.groupPath ? 1 : 0))
}
