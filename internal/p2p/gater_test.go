package p2p

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/longtest"
)

// An address a peer advertises outside loopback is never dialled; one the
// node was told to dial is.
func TestNeverDialsAnAddressItWasNotGiven(t *testing.T) {
	t.Parallel()
	n := startTestNode(t)
	_, pub, _ := crypto.GenerateEd25519Key(nil)
	other, _ := peer.IDFromPublicKey(pub)
	outside := multiaddr.StringCast("/ip4/192.0.2.1/tcp/4001") // TEST-NET-1: a real dial would hang
	n.host.Peerstore().AddAddr(other, outside, peerstore.TempAddrTTL)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	err := n.host.Connect(ctx, peer.AddrInfo{ID: other})
	if err == nil || !strings.Contains(err.Error(), "gater") {
		t.Fatalf("dial of an outside address: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the refused dial took %v: it was attempted", took)
	}
	if n.gater.InterceptAddrDial(other, outside) {
		t.Fatal("the gater allows an outside address")
	}
	n.gater.allow(outside)
	if !n.gater.InterceptAddrDial(other, outside) || !n.gater.InterceptAddrDial(other, multiaddr.StringCast("/ip4/127.0.0.1/tcp/9")) {
		t.Fatal("the gater refuses a given or a loopback address")
	}
}

// A configured peer that drops the connection is dialled again.
func TestKeptPeerIsRedialled(t *testing.T) {
	longtest.Mark(t, "waits for libp2p redial back-off")
	t.Parallel() // it waits for the peering backoff (5 to 13 s)
	a := startTestNode(t)
	b := startTestNode(t)
	infos, _ := peer.AddrInfosFromP2pAddrs(a.Addrs()...)
	if err := b.Connect(context.Background(), infos[0]); err != nil {
		t.Fatal(err)
	}
	if err := a.host.Network().ClosePeer(b.PeerID()); err != nil {
		t.Fatal(err)
	}
	waitFor := func(what string, want network.Connectedness) {
		deadline := time.Now().Add(30 * time.Second)
		for b.host.Network().Connectedness(a.PeerID()) != want {
			if time.Now().After(deadline) {
				t.Fatalf("B did not %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitFor("see the connection drop", network.NotConnected)
	waitFor("reconnect to the peer it keeps", network.Connected)
}

func startTestNode(t *testing.T) *Node {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := blocks.Open(filepath.Join(t.TempDir(), "blocks"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	n, err := Start(context.Background(), Config{
		ListenAddrs: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")},
		Blockstore:  s.Blockstore(),
		Log:         log,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}
