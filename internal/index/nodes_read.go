package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/nodes"
)

// The node registry's projection (internal/chain/nodes): one row per
// operator, from the genesis entries and each RegisterNode event, a later
// registration replacing the row.

// Node is an operator's registered node: its public URL, its libp2p peer
// id and addresses, and the block it was registered in (the genesis
// height for a genesis entry).
type Node struct {
	Operator common.Address
	URL      string
	PeerID   string
	Addrs    []string
	Height   int64
}

// writeNodes records registrations made at height, in order.
func writeNodes(ctx context.Context, tx *sql.Tx, height int64, list []nodes.Node) error {
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

// Nodes lists the registered nodes by operator address (as hex in lower
// case, so both engines order alike).
func (ix *Index) Nodes(ctx context.Context) ([]Node, error) {
	list, err := remember(ix, readKey("nodes", ""), func() ([]Node, error) { return ix.nodes(ctx) })
	if err != nil {
		return nil, fmt.Errorf("list nodes: %w", err)
	}
	return list, nil
}

func (ix *Index) nodes(ctx context.Context) ([]Node, error) {
	rows, err := ix.query(ctx, `SELECT operator, url, peer_id, addrs, height FROM chain_nodes ORDER BY lower(operator)`)
	if err != nil {
		return nil, fmt.Errorf("read nodes: %w", err)
	}
	defer rows.Close()
	out := []Node{}
	for rows.Next() {
		var n Node
		var operator, addrs string
		if err := rows.Scan(&operator, &n.URL, &n.PeerID, &addrs, &n.Height); err != nil {
			return nil, fmt.Errorf("read nodes: %w", err)
		}
		n.Operator = common.HexToAddress(operator)
		if err := json.Unmarshal([]byte(addrs), &n.Addrs); err != nil {
			return nil, fmt.Errorf("node of %s: addrs: %w", operator, err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read nodes: %w", err)
	}
	return out, nil
}
