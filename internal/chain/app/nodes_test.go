package app_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

const (
	testPeerID  = "12D3KooWSNhSwoy21BvU28GHxxYobUFZbkQzjQqAR9v7yp4Kmeff"
	otherPeerID = "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N"
)

func registerNode(t *testing.T, from wallet, nonce uint64, url, peerID, addrs string) []byte {
	t.Helper()
	return encodeSigned(t, from, tx.KindRegisterNode, app.DefaultParams().ChainID, map[string]any{
		"from": from.addr.Hex(), "url": url, "peerId": peerID, "addrs": addrs, "nonce": strconv.FormatUint(nonce, 10),
	})
}

func nodeOf(t *testing.T, st *state.Store, w wallet) (nodes.Node, bool) {
	t.Helper()
	n, ok, err := nodes.Of(st, w.addr)
	if err != nil {
		t.Fatal(err)
	}
	return n, ok
}

func TestRegisterNodeByAnOperator(t *testing.T) {
	t.Parallel()
	op := newWallet(t)
	a, st := newForgeChain(t, op)
	res := block(t, a, 1, registerNode(t, op, 0, "https://forge.example.org", testPeerID, "/ip4/203.0.113.7/tcp/4101 /dns4/forge.example.org/tcp/4101"))
	if res[0].Code != 0 {
		t.Fatalf("register: %d %s", res[0].Code, res[0].Log)
	}
	ev, err := nodes.ParseEvent(res[0].Events[0])
	want := nodes.Node{Operator: op.addr, URL: "https://forge.example.org", PeerID: testPeerID, Addrs: []string{"/ip4/203.0.113.7/tcp/4101", "/dns4/forge.example.org/tcp/4101"}}
	if err != nil || ev.Operator != want.Operator || ev.URL != want.URL || ev.PeerID != want.PeerID || !slices.Equal(ev.Addrs, want.Addrs) {
		t.Fatalf("event %+v (%v), want %+v", ev, err, want)
	}
	if got, ok := nodeOf(t, st, op); !ok || got.URL != want.URL || !slices.Equal(got.Addrs, want.Addrs) {
		t.Fatalf("state holds %+v %v", got, ok)
	}

	// Re-registering replaces the entry; no addresses is allowed.
	res = block(t, a, 2, registerNode(t, op, 1, "http://127.0.0.1:3000", otherPeerID, ""))
	if res[0].Code != 0 {
		t.Fatalf("re-register: %d %s", res[0].Code, res[0].Log)
	}
	if got, _ := nodeOf(t, st, op); got.URL != "http://127.0.0.1:3000" || got.PeerID != otherPeerID || len(got.Addrs) != 0 {
		t.Fatalf("after re-registering: %+v", got)
	}
}

func TestRegisterNodeRejections(t *testing.T) {
	t.Parallel()
	op, mallory := newWallet(t), newWallet(t)
	a, st := newForgeChain(t, op)
	if r := checkTx(t, a, registerNode(t, mallory, 0, "https://forge.example.org", testPeerID, "")); r.Code != tx.CodeNotOperator || r.Log == "" {
		t.Fatalf("a non-operator's registration: %d %s", r.Code, r.Log)
	}
	for _, c := range []struct{ url, peerID, addrs string }{
		{"https://forge.example.org/", testPeerID, ""},
		{"forge.example.org", testPeerID, ""},
		{"ftp://forge.example.org", testPeerID, ""},
		{"https://forge.example.org", "12D3KooWnot", ""},
		{"https://forge.example.org", testPeerID, "/ip4/1.2.3.4/tcp/1  /ip4/1.2.3.4/tcp/2"},
		{"https://forge.example.org", testPeerID, " /ip4/1.2.3.4/tcp/1"},
		{"https://forge.example.org", testPeerID, "/ip4/1.2.3.4/tcp"},
		{"https://forge.example.org", testPeerID, "/ip4/1.2.3.4/tcp/1 /ip4/1.2.3.4/tcp/2 /ip4/1.2.3.4/tcp/3 /ip4/1.2.3.4/tcp/4 /ip4/1.2.3.4/tcp/5 /ip4/1.2.3.4/tcp/6 /ip4/1.2.3.4/tcp/7 /ip4/1.2.3.4/tcp/8 /ip4/1.2.3.4/tcp/9"},
	} {
		if r := checkTx(t, a, registerNode(t, op, 0, c.url, c.peerID, c.addrs)); r.Code != tx.CodeInvalidField || r.Log == "" {
			t.Errorf("%+v: code %d (%s), want invalid_field", c, r.Code, r.Log)
		}
	}
	// In a block they fail too, and leave no entry and no used nonce.
	res := block(t, a, 1, registerNode(t, mallory, 0, "https://forge.example.org", testPeerID, ""), registerNode(t, op, 0, "https://x/y", testPeerID, ""))
	if res[0].Code != tx.CodeNotOperator || res[1].Code != tx.CodeInvalidField {
		t.Fatalf("results %d %s / %d %s", res[0].Code, res[0].Log, res[1].Code, res[1].Log)
	}
	for _, w := range []wallet{op, mallory} {
		if n, ok := nodeOf(t, st, w); ok {
			t.Fatalf("a refused registration was recorded: %+v", n)
		}
	}
	if r := checkTx(t, a, registerNode(t, op, 0, "https://forge.example.org", testPeerID, "")); r.Code != 0 {
		t.Fatalf("the operator's nonce 0 after refusals: %d %s", r.Code, r.Log)
	}
}

func TestGenesisNodes(t *testing.T) {
	t.Parallel()
	op, other := newWallet(t), newWallet(t)
	initWith := func(g app.Genesis) (*state.Store, error) {
		st := state.OpenMemory()
		a, err := app.New(st)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(g)
		_, err = a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: raw})
		return st, err
	}
	g := app.TreasuryGenesis(op.addr)
	g.Nodes = []nodes.Node{{Operator: op.addr, URL: "http://127.0.0.1:3000", PeerID: testPeerID, Addrs: []string{"/ip4/127.0.0.1/tcp/4101"}}}
	st, err := initWith(g)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := nodeOf(t, st, op); !ok || n.URL != "http://127.0.0.1:3000" || n.PeerID != testPeerID {
		t.Fatalf("genesis node: %+v %v", n, ok)
	}
	for name, bad := range map[string][]nodes.Node{
		"not an operator": {{Operator: other.addr, URL: "http://127.0.0.1:3000", PeerID: testPeerID}},
		"listed twice":    {g.Nodes[0], g.Nodes[0]},
		"invalid url":     {{Operator: op.addr, URL: "127.0.0.1:3000", PeerID: testPeerID}},
	} {
		g := app.TreasuryGenesis(op.addr)
		g.Nodes = bad
		if _, err := initWith(g); err == nil {
			t.Errorf("a genesis with a node %s started", name)
		}
	}
}
