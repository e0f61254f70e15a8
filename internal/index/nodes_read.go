package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

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

// Nodes lists the registered nodes by operator address (as hex in lower
// case, so both engines order alike).
func (ix *Index) Nodes(ctx context.Context) ([]Node, error) {
	list, err := remember(ctx, ix, readKey("nodes", ""), func(ctx context.Context) ([]Node, error) { return ix.nodes(ctx) })
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
