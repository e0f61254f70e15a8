// Package p2ptest starts IPFS nodes for tests: on loopback, each serving
// its own block store, stopped when the test ends.
package p2ptest

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/ipfs/boxo/blockstore"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/p2p"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// OpenBlocks opens an empty block store in a temporary directory.
func OpenBlocks(t testing.TB) *blocks.Store {
	t.Helper()
	s, err := blocks.Open(filepath.Join(t.TempDir(), "blocks"), quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// StartNode starts a node on a loopback TCP port that serves bs and keeps
// a connection to peers.
func StartNode(t testing.TB, bs blockstore.Blockstore, peers ...multiaddr.Multiaddr) *p2p.Node {
	t.Helper()
	n, err := p2p.Start(context.Background(), p2p.Config{
		ListenAddrs: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")},
		Peers:       peers,
		Blockstore:  bs,
		Log:         quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// Connect connects from to to.
func Connect(t testing.TB, from, to *p2p.Node) {
	t.Helper()
	infos, err := peer.AddrInfosFromP2pAddrs(to.Addrs()...)
	if err != nil || len(infos) != 1 {
		t.Fatalf("addresses of %s: %v %v", to.PeerID(), infos, err)
	}
	if err := from.Connect(context.Background(), infos[0]); err != nil {
		t.Fatal(err)
	}
}
