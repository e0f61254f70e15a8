package api_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/markdown"
	"github.com/dforge/dforge/internal/store"
)

// chainNode is a real single-validator chain with its SQL index behind the
// API, on an httptest server.
type chainNode struct {
	url     string
	chainID uint64
}

func startChainNode(t *testing.T, allocs ...ledger.Allocation) *chainNode {
	t.Helper()
	return startChainNodeWith(t, app.Genesis{Params: app.DefaultParams(), Allocations: allocs})
}

// startChainNodeWith starts a chain-only node from genesis.
func startChainNodeWith(t *testing.T, genesis app.Genesis) *chainNode {
	t.Helper()
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ch, err := chain.Open(ctx, chain.Config{Dir: filepath.Join(dir, "chain"), RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0", Genesis: genesis, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "api.db"))
	if err != nil {
		t.Fatal(err)
	}
	ix := index.New(log, st, ch.Client())
	ixCtx, stopIndex := context.WithCancel(context.Background())
	ixDone := make(chan error, 1)
	go func() { ixDone <- ix.Run(ixCtx) }()
	mux := http.NewServeMux()
	routes.New(log, api.Services{Chain: ch, Index: ix, Markdown: markdown.New()}, "test").Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		stopIndex()
		<-ixDone
		ch.Close()
		st.Close()
	})
	return &chainNode{url: srv.URL, chainID: genesis.Params.ChainID}
}

type signer struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

func newSigner() *signer {
	key, _ := crypto.GenerateKey()
	return &signer{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// send relays a signed transaction through the API and returns its result.
func (n *chainNode) send(t *testing.T, s *signer, kind tx.Kind, msg map[string]any) chain.Result {
	t.Helper()
	msg["from"] = s.addr.Hex()
	msg["nonce"] = strconv.FormatUint(s.nonce, 10)
	env, err := tx.Sign(s.key, kind, msg, n.chainID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(env)
	res, err := http.Post(n.url+"/api/v1/chain/txs", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out chain.Result
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 || out.Code != 0 {
		t.Fatalf("relay %s: %d %+v %v", kind, res.StatusCode, out, err)
	}
	s.nonce++
	return out
}

// get fetches path and decodes the JSON answer into a value of type T.
func get[T any](t *testing.T, n *chainNode, path string) (*http.Response, T) {
	t.Helper()
	var v T
	res, err := http.Get(n.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("GET %s: %d %s: %v", path, res.StatusCode, body, err)
	}
	return res, v
}

type apiError struct{ Message, Code, Field string }

// TestChainReads checks every chain read endpoint against transactions
// relayed through the API, including paging headers, 404s and bad input.
func TestChainReads(t *testing.T) {
	t.Parallel()
	alice, bob := newSigner(), newSigner()
	n := startChainNode(t, ledger.Allocation{Address: alice.addr, Amount: 1_000_000})

	transfer := n.send(t, alice, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": "250000"})
	tip := n.send(t, bob, tx.KindTip, map[string]any{"to": alice.addr.Hex(), "amount": "1000", "target": "user:alice"})
	n.send(t, alice, tx.KindStake, map[string]any{"amount": "100000"})
	claim := n.send(t, alice, tx.KindClaimUsername, map[string]any{"username": "alice"})

	t.Run("status", func(t *testing.T) {
		_, s := get[index.Status](t, n, "/api/v1/chain/status")
		if s.Height < claim.Height || s.Supply != 1_000_000 || s.Staked != 100_000 || s.Accounts != 2 || s.Validators != 1 ||
			s.Treasury.Address != app.TreasuryAddress.Hex() || s.AppHash == "" || s.Time == "" {
			t.Fatalf("status = %+v", s)
		}
	})

	t.Run("accounts", func(t *testing.T) {
		_, a := get[map[string]any](t, n, "/api/v1/accounts/"+strings.ToLower(alice.addr.Hex()))
		want := map[string]any{"address": alice.addr.Hex(), "username": "alice", "balance": 651_000.0, "staked": 100_000.0, "unbonding": 0.0, "nonce": 3.0}
		for k, v := range want {
			if a[k] != v {
				t.Errorf("account %s = %v, want %v (%v)", k, a[k], v, a)
			}
		}
		_, b := get[index.Account](t, n, "/api/v1/accounts/"+bob.addr.Hex())
		if b.Username != names.LegacyDefault(bob.addr) || b.Balance != 249_000 {
			t.Errorf("bob = %+v", b)
		}
		res, txs := get[[]index.Tx](t, n, "/api/v1/accounts/"+bob.addr.Hex()+"/txs")
		if res.Header.Get("X-Total-Count") != "2" || len(txs) != 2 || txs[0].Hash != tip.Hash || txs[1].Hash != transfer.Hash {
			t.Errorf("bob's txs = %+v (total %s)", txs, res.Header.Get("X-Total-Count"))
		}
		for _, path := range []string{"/api/v1/accounts/0xnothex", "/api/v1/accounts/0xnothex/txs"} {
			res, e := get[apiError](t, n, path)
			if res.StatusCode != 400 || e.Code != "invalid_address" || e.Field != "address" || e.Message == "" {
				t.Errorf("GET %s = %d %+v", path, res.StatusCode, e)
			}
		}
	})

	t.Run("blocks", func(t *testing.T) {
		res, blocks := get[[]index.Block](t, n, "/api/v1/chain/blocks?limit=1")
		total, _ := strconv.ParseInt(res.Header.Get("X-Total-Count"), 10, 64)
		if len(blocks) != 1 || total < claim.Height || blocks[0].Height != total {
			t.Fatalf("blocks = %+v, total %d", blocks, total)
		}
		link := res.Header.Get("Link")
		if !strings.Contains(link, `</api/v1/chain/blocks?limit=1&page=2>; rel="next"`) ||
			!strings.Contains(link, `</api/v1/chain/blocks?limit=1&page=`+strconv.FormatInt(total, 10)+`>; rel="last"`) || strings.Contains(link, "prev") {
			t.Errorf("first page Link = %s", link)
		}
		// CometBFT may commit an empty block meanwhile: each page is checked
		// against its own total.
		totalOf := func(res *http.Response) int64 {
			v, _ := strconv.ParseInt(res.Header.Get("X-Total-Count"), 10, 64)
			return v
		}
		res, blocks = get[[]index.Block](t, n, "/api/v1/chain/blocks?limit=1&page=2")
		link = res.Header.Get("Link")
		if len(blocks) != 1 || blocks[0].Height != totalOf(res)-1 || !strings.Contains(link, `page=1>; rel="first"`) || !strings.Contains(link, `page=1>; rel="prev"`) {
			t.Errorf("second page = %+v, Link %s", blocks, link)
		}
		res, big := get[[]index.Block](t, n, "/api/v1/chain/blocks?limit=1000")
		if int64(len(big)) != totalOf(res) || res.Header.Get("Link") != "" {
			t.Errorf("limit=1000 gave %d blocks of %d, Link %q", len(big), totalOf(res), res.Header.Get("Link"))
		}
		// 0 is the default, as in Gitea (its SDK sends page=0 and limit=0).
		res, blocks = get[[]index.Block](t, n, "/api/v1/chain/blocks?page=0&limit=1")
		link = res.Header.Get("Link")
		if len(blocks) != 1 || blocks[0].Height != totalOf(res) || !strings.Contains(link, `</api/v1/chain/blocks?limit=1&page=2>; rel="next"`) || strings.Contains(link, "prev") {
			t.Errorf("page=0 = %+v, Link %s", blocks, link)
		}
		res, blocks = get[[]index.Block](t, n, "/api/v1/chain/blocks?page=0&limit=0")
		if want := min(totalOf(res), 20); int64(len(blocks)) != want || (totalOf(res) > 20 && !strings.Contains(res.Header.Get("Link"), "limit=20&page=2")) {
			t.Errorf("limit=0 gave %d blocks of %d, want %d; Link %q", len(blocks), totalOf(res), want, res.Header.Get("Link"))
		}
		_, empty := get[[]index.Block](t, n, "/api/v1/chain/blocks?page=99")
		if empty == nil || len(empty) != 0 {
			t.Errorf("a page past the end = %#v, want []", empty)
		}

		_, b := get[index.BlockDetail](t, n, "/api/v1/chain/blocks/"+strconv.FormatInt(tip.Height, 10))
		if b.Height != tip.Height || b.Txs != 1 || len(b.Transactions) != 1 || b.Transactions[0].Hash != tip.Hash || len(b.Hash) != 64 || b.Proposer == "" {
			t.Errorf("block = %+v", b)
		}
		res, e := get[apiError](t, n, "/api/v1/chain/blocks/999999")
		if res.StatusCode != 404 || e.Code != "not_found" || !strings.Contains(e.Message, "999999") {
			t.Errorf("unknown block = %d %+v", res.StatusCode, e)
		}
		for _, h := range []string{"abc", "0", "-1", "1.5"} {
			res, e := get[apiError](t, n, "/api/v1/chain/blocks/"+h)
			if res.StatusCode != 400 || e.Code != "invalid_height" || e.Message != "height must be a whole number from 1 up" {
				t.Errorf("block %q = %d %+v", h, res.StatusCode, e)
			}
		}
	})

	t.Run("txs", func(t *testing.T) {
		res, all := get[[]index.Tx](t, n, "/api/v1/chain/txs")
		if res.Header.Get("X-Total-Count") != "4" || len(all) != 4 || all[0].Hash != claim.Hash || all[0].Username != "alice" {
			t.Fatalf("txs = %+v", all)
		}
		_, tips := get[[]index.Tx](t, n, "/api/v1/chain/txs?type=Tip")
		if len(tips) != 1 || tips[0].Hash != tip.Hash {
			t.Errorf("type=Tip = %+v", tips)
		}
		// A filter is not a signed type: any case names it.
		if _, lower := get[[]index.Tx](t, n, "/api/v1/chain/txs?type=tip"); len(lower) != 1 || lower[0].Hash != tip.Hash {
			t.Errorf("type=tip = %+v", lower)
		}
		_, mine := get[[]index.Tx](t, n, "/api/v1/chain/txs?type=Transfer&address="+bob.addr.Hex())
		if len(mine) != 1 || mine[0].Hash != transfer.Hash || mine[0].Amount != 250_000 || mine[0].To != bob.addr.Hex() {
			t.Errorf("bob's transfers = %+v", mine)
		}
		_, one := get[index.Tx](t, n, "/api/v1/chain/txs/0x"+strings.ToUpper(tip.Hash))
		want := index.Tx{Hash: tip.Hash, Height: tip.Height, Type: "Tip", From: bob.addr.Hex(), To: alice.addr.Hex(), Amount: 1000, Target: "user:alice", Time: one.Time}
		if one != want {
			t.Errorf("tx = %+v, want %+v", one, want)
		}
		bad := map[string]string{
			"/api/v1/chain/txs/" + strings.Repeat("0", 64): "404 not_found",
			"/api/v1/chain/txs/xyz":                        "400 invalid_hash",
			"/api/v1/chain/txs?type=Mint":                  "400 invalid_type",
			"/api/v1/chain/txs?address=0x12":               "400 invalid_address",
			"/api/v1/chain/txs?page=-1":                    "400 invalid_page",
			"/api/v1/chain/txs?page=x":                     "400 invalid_page",
			"/api/v1/chain/txs?limit=-5":                   "400 invalid_limit",
			"/api/v1/chain/txs?limit=ten":                  "400 invalid_limit",
		}
		for path, want := range bad {
			res, e := get[apiError](t, n, path)
			if got := strconv.Itoa(res.StatusCode) + " " + e.Code; got != want || e.Message == "" {
				t.Errorf("GET %s = %s %q, want %s", path, got, e.Message, want)
			}
		}
	})

	t.Run("tips", func(t *testing.T) {
		res, tips := get[[]index.Tx](t, n, "/api/v1/chain/tips?target=user:alice")
		if res.Header.Get("X-Total-Count") != "1" || len(tips) != 1 || tips[0].Hash != tip.Hash {
			t.Errorf("tips = %+v", tips)
		}
		_, none := get[[]index.Tx](t, n, "/api/v1/chain/tips?target=repo:alice/x")
		if len(none) != 0 {
			t.Errorf("tips of repo:alice/x = %+v", none)
		}
		for _, q := range []string{"", "?target=", "?target=bogus"} {
			res, e := get[apiError](t, n, "/api/v1/chain/tips"+q)
			if res.StatusCode != 400 || e.Code != "invalid_target" || e.Field != "target" {
				t.Errorf("tips%s = %d %+v", q, res.StatusCode, e)
			}
		}
	})

	t.Run("validators", func(t *testing.T) {
		res, vals := get[[]index.Validator](t, n, "/api/v1/chain/validators")
		if res.Header.Get("X-Total-Count") != "1" || len(vals) != 1 || vals[0].Power != 10 || len(vals[0].Address) != 40 || vals[0].PubKey == "" {
			t.Errorf("validators = %+v", vals)
		}
		_, none := get[[]index.Validator](t, n, "/api/v1/chain/validators?page=2")
		if none == nil || len(none) != 0 {
			t.Errorf("validators page 2 = %#v", none)
		}
	})

	t.Run("usernames", func(t *testing.T) {
		cases := map[string]index.Availability{
			"ALICE":                       {Name: "ALICE", Owner: alice.addr.Hex(), Reason: "this username is taken"},
			names.LegacyDefault(bob.addr): {Name: names.LegacyDefault(bob.addr), Owner: bob.addr.Hex(), Reason: "this username is taken"},
			"carol":                       {Name: "carol", Available: true},
			"settings":                    {Name: "settings", Reason: `"settings" is used by the forge itself`},
		}
		for name, want := range cases {
			res, got := get[index.Availability](t, n, "/api/v1/usernames/"+name)
			if res.StatusCode != 200 || got != want {
				t.Errorf("username %q = %d %+v, want %+v", name, res.StatusCode, got, want)
			}
		}
	})
}
