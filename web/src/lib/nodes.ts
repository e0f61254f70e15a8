import { useQuery } from '@tanstack/react-query'
import { getJSON } from '@/lib/http'

/** A node of the chain's node registry, as GET /api/v1/nodes lists it. */
export interface RegisteredNode {
  /** The operator key's address that registered it. */
  operator: string
  /** Its public origin, http(s)://host[:port]. */
  url: string
  /** Its libp2p peer id. */
  peer_id: string
  /** Its libp2p multiaddrs. */
  addrs: string[]
  /** The block of the registration; 0 for a genesis entry. */
  height: number
}

/** The most nodes one request lists (the API's page limit); a registry has one node per operator. */
const NODES_LIMIT = 100

/** The node registry (the explorer's nodes, a repository's holders); under the 'chain' key, so it refreshes with each new block. */
export function useNodes(enabled = true) {
  return useQuery({ queryKey: ['chain', 'nodes'], queryFn: () => getJSON<RegisteredNode[]>(`/api/v1/nodes?limit=${NODES_LIMIT}`), enabled })
}
