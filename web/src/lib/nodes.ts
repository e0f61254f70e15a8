import { useQuery } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { getJSON } from '@/lib/http'

/** A node of the chain's node registry, as GET /api/v1/nodes lists it. */
export type RegisteredNode = Schema<'Node'>

/** The most nodes one request lists (the API's page limit); a registry has one node per operator. */
const NODES_LIMIT = 100

/** The node registry (the explorer's nodes, a repository's holders); under the 'chain' key, so it refreshes with each new block. */
export function useNodes(enabled = true) {
  return useQuery({ queryKey: ['chain', 'nodes'], queryFn: () => getJSON<RegisteredNode[]>(`/api/v1/nodes?limit=${NODES_LIMIT}`), enabled })
}
