package node

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/p2p"
)

// Two nodes on the default address: the second takes a free port; a node
// given --ipfs-peer fetches a block from the first; the peer id survives a
// restart; a port asked for that is taken is an error.
func TestStartIPFS(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx := context.Background()
	start := func(dataDir string, cfg IPFSConfig) (*p2p.Node, *blocks.Store) {
		t.Helper()
		bs, err := blocks.Open(filepath.Join(dataDir, "blocks"), log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bs.Close() })
		n, err := startIPFS(ctx, dataDir, cfg, bs, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n, bs
	}
	dirA := t.TempDir()
	a, storeA := start(dirA, IPFSConfig{})
	data := []byte("blob 6\x00hello\n")
	c, _ := cid.V1Builder{Codec: blocks.GitRaw, MhType: 0x11}.Sum(data)
	if err := storeA.Put(c, data); err != nil {
		t.Fatal(err)
	}
	var peers []multiaddr.Multiaddr
	for _, addr := range a.Addrs() {
		p, err := p2p.ParsePeer(addr.String()) // as serve's --ipfs-peer
		if err != nil {
			t.Fatal(err)
		}
		peers = append(peers, p)
	}
	b, _ := start(t.TempDir(), IPFSConfig{Peers: peers})
	if a.Addrs()[0].Equal(b.Addrs()[0]) {
		t.Fatal("two nodes on one address")
	}
	fetchCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if blk, err := b.Fetch(fetchCtx, c); err != nil || string(blk.RawData()) != string(data) {
		t.Fatalf("fetch from the --ipfs-peer: %v", err)
	}

	busy, _ := multiaddr.SplitLast(a.Addrs()[0]) // without /p2p/<id>
	bs, _ := blocks.Open(filepath.Join(t.TempDir(), "blocks"), log)
	defer bs.Close()
	if n, err := startIPFS(ctx, t.TempDir(), IPFSConfig{Listen: []multiaddr.Multiaddr{busy}}, bs, log); err == nil {
		n.Close()
		t.Fatal("a taken port that was asked for was swapped for another")
	}

	id := a.PeerID()
	a.Close()
	again, _ := start(dirA, IPFSConfig{})
	if again.PeerID() != id {
		t.Fatalf("peer id changed across a restart: %s then %s", id, again.PeerID())
	}
}
