import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Schema } from '@/lib/apiSchema'
import { getJSON } from '@/lib/http'

/** A node of the chain's node registry, as GET /api/v1/nodes lists it. */
export type RegisteredNode = Schema<'Node'>

/** The most nodes one request lists (the API's page limit); a registry has one node per operator. */
const NODES_LIMIT = 100

const NODES_KEY = ['chain', 'nodes']

/** The node registry (the explorer's nodes, a repository's holders); under the 'chain' key, so it refreshes with each new block. */
export function useNodes(enabled = true) {
  return useQuery({ queryKey: NODES_KEY, queryFn: () => getJSON<RegisteredNode[]>(`/api/v1/nodes?limit=${NODES_LIMIT}`), enabled })
}

/**
 * The node registry for naming a node that signed a record: asked for only
 * once wanted (a badge opened), and never while the page already holds it,
 * so the badges of a page make one request between them, and none refreshes
 * it with each block as a list of the nodes does.
 */
export function useNodesWhenWanted(wanted: boolean) {
  const held = useQueryClient().getQueryData(NODES_KEY) !== undefined
  return useNodes(wanted && !held)
}
