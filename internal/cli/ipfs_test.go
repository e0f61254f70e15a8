package cli

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/p2p"
)

func TestServeIPFSFlags(t *testing.T) {
	peer := "/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA"
	t.Setenv("DFORGE_IPFS_PEERS", peer)
	t.Setenv("DFORGE_P2P_LISTEN", "")
	cfg, err := parseServe(nil)
	if err != nil || len(cfg.IPFSListen) != 0 || strings.Join(cfg.IPFSPeers, " ") != peer {
		t.Fatalf("env: %+v %v", cfg, err)
	}
	cfg, err = parseServe([]string{"--p2p-listen", "/ip4/127.0.0.1/tcp/4500", "--ipfs-peer", peer, "--ipfs-peer", peer})
	if err != nil || strings.Join(cfg.IPFSListen, " ") != "/ip4/127.0.0.1/tcp/4500" || len(cfg.IPFSPeers) != 2 {
		t.Fatalf("flags: %+v %v", cfg, err)
	}
	for _, bad := range [][]string{{"--ipfs-peer", "/ip4/127.0.0.1/tcp/4001"}, {"--ipfs-peer", "127.0.0.1:4001"}, {"--p2p-listen", "127.0.0.1:4101"}} {
		if _, err := parseServe(bad); err == nil {
			t.Errorf("parseServe(%q) accepted it", bad)
		}
	}
}

// Two nodes on the default address: the second takes a free port; a node
// given --ipfs-peer fetches a block from the first; the peer id survives a
// restart; a port asked for that is taken is an error.
func TestStartIPFS(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx := context.Background()
	start := func(cfg ServeConfig) (*p2p.Node, *blocks.Store) {
		t.Helper()
		bs, err := blocks.Open(filepath.Join(cfg.DataDir, "blocks"), log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bs.Close() })
		n, err := startIPFS(ctx, cfg, bs, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n, bs
	}
	dirA := t.TempDir()
	a, storeA := start(ServeConfig{DataDir: dirA})
	data := []byte("blob 6\x00hello\n")
	c, _ := cid.V1Builder{Codec: blocks.GitRaw, MhType: 0x11}.Sum(data)
	if err := storeA.Put(c, data); err != nil {
		t.Fatal(err)
	}
	var peers []string
	for _, addr := range a.Addrs() {
		peers = append(peers, addr.String())
	}
	b, _ := start(ServeConfig{DataDir: t.TempDir(), IPFSPeers: peers})
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
	if n, err := startIPFS(ctx, ServeConfig{DataDir: t.TempDir(), IPFSListen: []string{busy.String()}}, bs, log); err == nil {
		n.Close()
		t.Fatal("a taken port that was asked for was swapped for another")
	}

	id := a.PeerID()
	a.Close()
	again, _ := start(ServeConfig{DataDir: dirA})
	if again.PeerID() != id {
		t.Fatalf("peer id changed across a restart: %s then %s", id, again.PeerID())
	}
}
