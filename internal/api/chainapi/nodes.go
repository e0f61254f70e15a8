package chainapi

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/dforge/dforge/internal/index"
)

// nodeJSON is a node of the registry as GET /api/v1/nodes lists it.
type nodeJSON struct {
	// Operator is the operator key's address (EIP-55) that registered it.
	Operator string `json:"operator"`
	// URL is the node's public origin, http(s)://host[:port].
	URL string `json:"url"`
	// PeerID is its libp2p peer id (base58, 12D3KooW...).
	PeerID string `json:"peer_id"`
	// Addrs are its libp2p multiaddrs, without /p2p/<peer id>.
	Addrs []string `json:"addrs"`
	// Height is the block of the registration; 0 for a genesis entry.
	Height int64 `json:"height"`
}

func toNodeJSON(n index.Node) nodeJSON {
	return nodeJSON{Operator: n.Operator.Hex(), URL: n.URL, PeerID: n.PeerID, Addrs: n.Addrs, Height: n.Height}
}

// listNodes lists the node registry: each operator's node with its public
// URL and libp2p peer id and addresses, by operator address.
func (a *Handler) listNodes(w http.ResponseWriter, r *http.Request) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	registered, err := a.Index.Nodes(r.Context())
	if err != nil {
		return err
	}
	page := api.PageSlice(registered, p)
	out := make([]nodeJSON, len(page))
	for i, n := range page {
		out[i] = toNodeJSON(n)
	}
	return a.RespondList(w, r, p, int64(len(registered)), out, nil)
}
