package chain

import (
	"cmp"
	"slices"
	"time"

	"github.com/cometbft/cometbft/p2p"
)

// Peer is a node this one is connected to, for the admin console.
type Peer struct {
	ID       string
	Moniker  string
	Address  string // the address it listens on, id@host:port
	Outbound bool   // this node dialled it
	// Since is how long the connection has lasted.
	Since time.Duration
}

// Peers lists the connected peers, the longest connected first.
func (c *Chain) Peers() []Peer {
	var out []Peer
	for _, p := range c.node.Comet().Switch().Peers().Copy() {
		peer := Peer{ID: string(p.ID()), Outbound: p.IsOutbound(), Since: p.Status().Duration}
		if ni, ok := p.NodeInfo().(p2p.DefaultNodeInfo); ok {
			peer.Moniker = ni.Moniker
		}
		if addr, err := p.NodeInfo().NetAddress(); err == nil {
			peer.Address = addr.String()
		}
		out = append(out, peer)
	}
	slices.SortFunc(out, func(a, b Peer) int { return cmp.Compare(b.Since, a.Since) })
	return out
}
