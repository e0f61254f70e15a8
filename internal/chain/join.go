package chain

import (
	"context"
	"fmt"

	cmtjson "github.com/cometbft/cometbft/libs/json"
)

// What a node tells one that joins the network (dforge join): the
// genesis and where to dial it.

// GenesisJSON is the chain's genesis document as genesis.json holds it.
func (c *Chain) GenesisJSON(ctx context.Context) ([]byte, error) {
	res, err := c.node.Client().Genesis(ctx)
	if err != nil {
		return nil, fmt.Errorf("read genesis: %w", err)
	}
	b, err := cmtjson.MarshalIndent(res.Genesis, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode genesis: %w", err)
	}
	return b, nil
}

// PeerAddresses are the CometBFT peer addresses (id@host:port) a new node
// dials: this node's own, then its connected peers'.
func (c *Chain) PeerAddresses() []string {
	sw := c.node.Comet().Switch()
	out := []string{sw.NetAddress().String()}
	for _, p := range sw.Peers().Copy() {
		if addr, err := p.NodeInfo().NetAddress(); err == nil {
			out = append(out, addr.String())
		}
	}
	return out
}
