package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/index/readdb"
)

// The node registry's projection (internal/chain/nodes): one row per
// operator, from the genesis entries and each RegisterNode event, a later
// registration replacing the row.

// writeNodes records registrations made at height, in order.
func writeNodes(ctx context.Context, tx *readdb.WriteTx, height int64, list []nodes.Node) error {
	for _, n := range list {
		addrs, err := json.Marshal(n.Addrs)
		if err != nil {
			return fmt.Errorf("write node of %s: %w", n.Operator.Hex(), err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO chain_nodes (operator, url, peer_id, addrs, height) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (operator) DO UPDATE SET url = excluded.url, peer_id = excluded.peer_id, addrs = excluded.addrs, height = excluded.height`,
			n.Operator.Hex(), n.URL, n.PeerID, string(addrs), height); err != nil {
			return fmt.Errorf("write node of %s: %w", n.Operator.Hex(), err)
		}
	}
	return nil
}

// genesisNodes are the genesis entries as the chain recorded them
// (canonical peer ids and addresses).
func genesisNodes(list []nodes.Node) ([]nodes.Node, error) {
	out := make([]nodes.Node, len(list))
	for i, n := range list {
		c, err := nodes.Canonical(n)
		if err != nil {
			return nil, fmt.Errorf("genesis node of %s: %w", n.Operator.Hex(), err)
		}
		out[i] = c
	}
	return out, nil
}
