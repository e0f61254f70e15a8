package index_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
)

const (
	peerA    = "12D3KooWSNhSwoy21BvU28GHxxYobUFZbkQzjQqAR9v7yp4Kmeff"
	peerACid = "bafzaajaiaejcb5qdma6jgycqpd5myvpkub7npcg4dt32p2nm26loxfnpodnpiq4w"
	peerB    = "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N"
)

// TestNodesProjection: the genesis entries are projected at the genesis
// height (in the form the chain recorded them), a registration adds a
// row, a re-registration replaces one, a refused one changes nothing, and
// a rebuild gives the same rows.
func TestNodesProjection(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		opA, opB, mallory := newWallet(), newWallet(), newWallet()
		genesis := app.Genesis{Params: testParams, Operators: []common.Address{opA.addr, opB.addr},
			Nodes: []nodes.Node{{Operator: opA.addr, URL: "http://127.0.0.1:3000", PeerID: peerACid, Addrs: []string{"/ip4/127.0.0.1/tcp/4101"}}}}
		dir := t.TempDir()
		ch := openChain(t, dir, genesis)
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, ch.Client())
		stop := follow(t, ix)

		if err := ix.WaitFor(ctx, 0); err != nil {
			t.Fatal(err)
		}
		wantA := index.Node{Operator: opA.addr, URL: "http://127.0.0.1:3000", PeerID: peerA, Addrs: []string{"/ip4/127.0.0.1/tcp/4101"}, Height: 0}
		checkNodes(t, ix, wantA)

		// A registration, then a re-registration that replaces it.
		opB.submit(t, ch, ix, tx.KindRegisterNode, map[string]any{"url": "https://b.example.org", "peerId": peerB, "addrs": "/dns4/b.example.org/tcp/4101 /ip4/203.0.113.7/tcp/4101"})
		res := opA.submit(t, ch, ix, tx.KindRegisterNode, map[string]any{"url": "https://a.example.org:8443", "peerId": peerA, "addrs": ""})
		wantA = index.Node{Operator: opA.addr, URL: "https://a.example.org:8443", PeerID: peerA, Addrs: []string{}, Height: res.Height}
		wantB := index.Node{Operator: opB.addr, URL: "https://b.example.org", PeerID: peerB, Addrs: []string{"/dns4/b.example.org/tcp/4101", "/ip4/203.0.113.7/tcp/4101"}}
		all, err := ix.Nodes(ctx)
		if err != nil || len(all) != 2 {
			t.Fatalf("nodes: %+v %v", all, err)
		}
		for _, n := range all {
			if n.Operator == opB.addr {
				wantB.Height = n.Height
			}
		}
		if wantB.Height < 1 || wantB.Height > res.Height {
			t.Fatalf("B's registration height %d, A's %d", wantB.Height, res.Height)
		}
		checkNodes(t, ix, wantA, wantB)

		// A non-operator is refused: no row.
		_, err = ch.Submit(ctx, mallory.sign(t, tx.KindRegisterNode, map[string]any{"url": "https://m.example.org", "peerId": peerB, "addrs": ""}))
		if !isCode(err, tx.CodeNotOperator) {
			t.Fatalf("a non-operator's registration: %v", err)
		}
		checkNodes(t, ix, wantA, wantB)

		// A rebuild from the stored chain gives the same rows.
		stop()
		if err := ch.Close(); err != nil {
			t.Fatal(err)
		}
		hist, err := chain.OpenHistory(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer hist.Close()
		if err := index.New(quiet, st, hist).Sync(ctx); err != nil {
			t.Fatal(err)
		}
		rebuilt := openStore(t, freshDatabase(t, name))
		defer rebuilt.Close()
		if _, err := index.Rebuild(ctx, quiet, rebuilt, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "rebuild", indextest.Dump(t, rebuilt), indextest.Dump(t, st))
	})
}

func checkNodes(t *testing.T, ix *index.Index, want ...index.Node) {
	t.Helper()
	got, err := ix.Nodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byOperator := func(list []index.Node) map[common.Address]index.Node {
		m := map[common.Address]index.Node{}
		for _, n := range list {
			m[n.Operator] = n
		}
		return m
	}
	if len(got) != len(want) || !reflect.DeepEqual(byOperator(got), byOperator(want)) {
		t.Fatalf("nodes = %+v, want %+v", got, want)
	}
	for i := 1; i < len(got); i++ {
		if strings.ToLower(got[i-1].Operator.Hex()) >= strings.ToLower(got[i].Operator.Hex()) {
			t.Fatalf("nodes are not in operator order: %+v", got)
		}
	}
}

func isCode(err error, code uint32) bool { return errors.Is(err, &tx.Error{Code: code}) }
