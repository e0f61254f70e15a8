package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/nodes"
	dforgenode "github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/p2p"
)

// genesisNodes reads the node registry entries of a data dir's genesis.
func genesisNodes(t *testing.T, data string) []nodes.Node {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(cometHome(data), "config", "genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		AppState app.Genesis `json:"app_state"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.AppState.Nodes
}

// peerOf is the peer id of a data dir's libp2p key.
func peerOf(t *testing.T, data string) string {
	t.Helper()
	if _, err := os.Stat(dforgenode.P2PKeyFile(data)); err != nil {
		t.Fatalf("p2p key: %v", err)
	}
	key, err := p2p.LoadKey(dforgenode.P2PKeyFile(data))
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return id.String()
}

// TestTestnetRegistersEveryNode: the genesis of `dforge testnet` has an
// entry per node with the HTTP and IPFS addresses its dforge.env gives
// `serve --home` and the peer id of its libp2p key, made up front.
func TestTestnetRegistersEveryNode(t *testing.T) {
	t.Setenv("DFORGE_P2P_LISTEN", "")
	dir := filepath.Join(t.TempDir(), "net")
	if err := Run(context.Background(), []string{"testnet", "--validators", "2", "--out", dir}, io.Discard); err != nil {
		t.Fatal(err)
	}
	registry := genesisNodes(t, node.TestnetHome(dir, 0))
	if len(registry) != 2 {
		t.Fatalf("genesis nodes %+v, want 2", registry)
	}
	for i, n := range registry {
		home := node.TestnetHome(dir, i)
		cfg, err := parseServe([]string{"--home", home})
		if err != nil {
			t.Fatal(err)
		}
		want := nodes.Node{Operator: operatorOf(t, home), URL: "http://" + cfg.Addr, PeerID: peerOf(t, home), Addrs: cfg.IPFSListen}
		if n.Operator != want.Operator || n.URL != want.URL || n.PeerID != want.PeerID || !slices.Equal(n.Addrs, want.Addrs) || len(n.Addrs) != 1 {
			t.Errorf("node%d's entry %+v, want %+v", i, n, want)
		}
		if _, err := nodes.Canonical(n); err != nil {
			t.Errorf("node%d's entry: %v", i, err)
		}
	}
	if registry[0].PeerID == registry[1].PeerID || slices.Equal(registry[0].Addrs, registry[1].Addrs) || registry[0].URL == registry[1].URL {
		t.Fatalf("nodes share a peer id or an address: %+v", registry)
	}
}

func TestInitRegistersTheNode(t *testing.T) {
	t.Setenv("DFORGE_P2P_LISTEN", "")
	dir := t.TempDir()
	args := []string{"init", "--data", dir, "--addr", "0.0.0.0:3555", "--p2p-listen", "/ip4/0.0.0.0/tcp/4999,/ip6/::/tcp/4999"}
	if err := Run(context.Background(), args, io.Discard); err != nil {
		t.Fatal(err)
	}
	want := nodes.Node{Operator: operatorOf(t, dir), URL: "http://127.0.0.1:3555", PeerID: peerOf(t, dir), Addrs: []string{"/ip4/0.0.0.0/tcp/4999", "/ip6/::/tcp/4999"}}
	if got := genesisNodes(t, dir); len(got) != 1 || !reflectNode(got[0], want) {
		t.Fatalf("genesis nodes %+v, want [%+v]", got, want)
	}

	dir = t.TempDir()
	if err := Run(context.Background(), []string{"init", "--data", dir, "--public-url", "https://forge.example.org"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	want = nodes.Node{Operator: operatorOf(t, dir), URL: "https://forge.example.org", PeerID: peerOf(t, dir), Addrs: []string{p2p.DefaultListen}}
	if got := genesisNodes(t, dir); len(got) != 1 || !reflectNode(got[0], want) {
		t.Fatalf("genesis nodes %+v, want [%+v]", got, want)
	}
	if err := Run(context.Background(), []string{"init", "--data", t.TempDir(), "--p2p-listen", "/ip4/1.2.3.4/tcp/1/p2p/" + want.PeerID}, io.Discard); err == nil {
		t.Fatal("init took a --p2p-listen address the registry refuses")
	}
}

func reflectNode(a, b nodes.Node) bool {
	return a.Operator == b.Operator && a.URL == b.URL && a.PeerID == b.PeerID && slices.Equal(a.Addrs, b.Addrs)
}

// TestServeRegistersTheNodeItRuns: a node started on other addresses than
// its genesis entry (here a free port) registers itself again, keeping its
// peer id.
func TestServeRegistersTheNodeItRuns(t *testing.T) {
	dir := t.TempDir()
	if err := Run(context.Background(), []string{"init", "--data", dir, "--addr", "127.0.0.1:3555"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	genesis := genesisNodes(t, dir)
	url, cancel, done := startServe(t, dir)
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	got := waitRegistered(t, url)
	if len(got) != 1 || got[0].URL != url || got[0].Operator != genesis[0].Operator.Hex() || got[0].PeerID != genesis[0].PeerID || len(got[0].Addrs) == 0 {
		t.Fatalf("registry %+v, want the node at %s with peer %s", got, url, genesis[0].PeerID)
	}
}

// apiNode is a node as GET /api/v1/nodes lists it.
type apiNode struct {
	Operator string   `json:"operator"`
	URL      string   `json:"url"`
	PeerID   string   `json:"peer_id"`
	Addrs    []string `json:"addrs"`
}

// waitRegistered waits until the node serving url lists itself in the
// node registry under url (serve registers in the background) and returns
// the registry.
func waitRegistered(t *testing.T, url string) []apiNode {
	t.Helper()
	var list []apiNode
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(url + "/api/v1/nodes")
		if err != nil {
			t.Fatal(err)
		}
		list = nil
		err = json.NewDecoder(res.Body).Decode(&list)
		res.Body.Close()
		if err == nil && slices.ContainsFunc(list, func(n apiNode) bool { return n.URL == url }) {
			return list
		}
	}
	t.Fatalf("the node at %s never registered itself: %+v", url, list)
	return nil
}
