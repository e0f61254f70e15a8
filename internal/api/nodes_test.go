package api_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/tx"
)

// TestNodes: GET /api/v1/nodes lists the genesis entries and the nodes
// registered through POST /api/v1/chain/txs, which takes a RegisterNode
// signed by an operator key only.
func TestNodes(t *testing.T) {
	t.Parallel()
	opA, opB, mallory := newSigner(), newSigner(), newSigner()
	genesis := app.Genesis{Params: app.DefaultParams(), Operators: []common.Address{opA.addr, opB.addr},
		Nodes: []nodes.Node{{Operator: opA.addr, URL: "http://127.0.0.1:3000", PeerID: "12D3KooWSNhSwoy21BvU28GHxxYobUFZbkQzjQqAR9v7yp4Kmeff", Addrs: []string{"/ip4/127.0.0.1/tcp/4101"}}}}
	n := startChainNodeWith(t, genesis)

	// The index projects the genesis just after the node starts.
	res, list := get[[]map[string]any](t, n, "/api/v1/nodes")
	for deadline := time.Now().Add(10 * time.Second); len(list) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		res, list = get[[]map[string]any](t, n, "/api/v1/nodes")
	}
	want := []map[string]any{{"operator": opA.addr.Hex(), "url": "http://127.0.0.1:3000", "peer_id": "12D3KooWSNhSwoy21BvU28GHxxYobUFZbkQzjQqAR9v7yp4Kmeff",
		"addrs": []any{"/ip4/127.0.0.1/tcp/4101"}, "height": float64(0)}}
	if res.StatusCode != 200 || res.Header.Get("X-Total-Count") != "1" || !reflect.DeepEqual(list, want) {
		t.Fatalf("GET /api/v1/nodes = %d %s %#v, want %#v", res.StatusCode, res.Header.Get("X-Total-Count"), list, want)
	}

	reg := n.send(t, opB, tx.KindRegisterNode, map[string]any{"url": "https://b.example.org", "peerId": "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N", "addrs": "/dns4/b.example.org/tcp/4101"})
	_, all := get[[]apiNode](t, n, "/api/v1/nodes")
	if len(all) != 2 {
		t.Fatalf("after a registration: %+v", all)
	}
	for _, got := range all {
		if got.Operator == opB.addr.Hex() && (got.URL != "https://b.example.org" || got.Height != reg.Height || len(got.Addrs) != 1) {
			t.Fatalf("B's node: %+v (registered at %d)", got, reg.Height)
		}
	}
	if _, page := get[[]apiNode](t, n, "/api/v1/nodes?limit=1&page=2"); len(page) != 1 {
		t.Fatalf("page 2 of 1: %+v", page)
	}

	// Refused: a non-operator, and an invalid URL.
	for _, c := range []struct {
		from *signer
		url  string
		code string
	}{{mallory, "https://m.example.org", "not_operator"}, {opB, "https://b.example.org/forge", "invalid_field"}} {
		env, err := tx.Sign(c.from.key, tx.KindRegisterNode, map[string]any{"from": c.from.addr.Hex(), "url": c.url,
			"peerId": "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N", "addrs": "", "nonce": c.from.nonce}, n.chainID)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(env)
		res, err := http.Post(n.url+"/api/v1/chain/txs", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if res.StatusCode != 400 || e.Code != c.code || e.Message == "" {
			t.Errorf("%s registering %s: %d %+v, want 400 %s", c.from.addr.Hex(), c.url, res.StatusCode, e, c.code)
		}
	}
	if _, all := get[[]apiNode](t, n, "/api/v1/nodes"); len(all) != 2 {
		t.Fatalf("a refused registration changed the list: %+v", all)
	}
}

type apiNode struct {
	Operator string   `json:"operator"`
	URL      string   `json:"url"`
	PeerID   string   `json:"peer_id"`
	Addrs    []string `json:"addrs"`
	Height   int64    `json:"height"`
}
