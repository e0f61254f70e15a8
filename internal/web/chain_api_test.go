package web_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/store"
)

// TestChainAPI relays wallet-signed transactions through the REST API to a
// real single-validator CometBFT node and reads the results back.
func TestChainAPI(t *testing.T) {
	t.Parallel()
	key, _ := crypto.GenerateKey()
	alice := crypto.PubkeyToAddress(key.PublicKey)
	bob := "0x0000000000000000000000000000000000000B0b"
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ch, err := chain.Open(ctx, chain.Config{
		Dir: filepath.Join(dir, "chain"), RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0", Logger: log,
		Genesis: app.Genesis{Params: app.DefaultParams(), Allocations: []ledger.Allocation{{Address: alice, Amount: 1000}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	st, err := store.Open(ctx, filepath.Join(dir, "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix := index.New(log, st, ch.Client())
	ixCtx, stopIndex := context.WithCancel(context.Background())
	ixDone := make(chan error, 1)
	go func() { ixDone <- ix.Run(ixCtx) }()
	defer func() {
		stopIndex()
		<-ixDone
	}()
	h, err := node.NewServices(log, st, ch, ix).Handler(node.Site{Dist: testDist, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	// 1. The parameters tell any EIP-712 client how to sign.
	_, body := do(t, "GET", srv.URL+"/api/v1/chain/params", "")
	var params struct {
		ChainID         string
		Token           struct{ Symbol string }
		UnbondingBlocks uint64
		EIP712Domain    struct {
			Name    string
			ChainID uint64
		}
		Types map[string][]struct{ Name, Type string }
	}
	if err := json.Unmarshal([]byte(body), &params); err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, f := range params.Types["Transfer"] {
		fields = append(fields, f.Name)
	}
	if params.EIP712Domain.ChainID != app.DefaultParams().ChainID || params.Token.Symbol == "" || params.UnbondingBlocks != app.DefaultParams().UnbondingBlocks || strings.Join(fields, ",") != "from,to,amount,nonce" {
		t.Fatalf("params = %s", body)
	}

	signFor := func(amount, nonce, chainID uint64) string {
		env, err := tx.Sign(key, tx.KindTransfer, map[string]any{
			"from": alice.Hex(), "to": bob, "amount": strconv.FormatUint(amount, 10), "nonce": strconv.FormatUint(nonce, 10),
		}, chainID)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(env)
		return string(b)
	}
	sign := func(amount, nonce uint64) string { return signFor(amount, nonce, params.EIP712Domain.ChainID) }

	// 2. A signed transfer commits; the answer comes after the block.
	transfer := sign(300, 0)
	res, body := do(t, "POST", srv.URL+"/api/v1/chain/txs", transfer)
	var committed chain.Result
	json.Unmarshal([]byte(body), &committed)
	if res.StatusCode != 200 || committed.Code != 0 || committed.Height < 1 || committed.Hash == "" {
		t.Fatalf("relay = %d %s", res.StatusCode, body)
	}
	_, body = do(t, "GET", srv.URL+"/api/v1/accounts/"+alice.Hex(), "")
	if !strings.Contains(body, `"balance":700`) || !strings.Contains(body, `"nonce":1`) || !strings.Contains(body, `"address":"`+alice.Hex()+`"`) ||
		!strings.Contains(body, `"username":"`+names.LegacyDefault(alice)+`"`) {
		t.Fatalf("account = %s", body)
	}

	// 3. Each rejection is a 4xx with a stable code, and nothing is applied.
	tampered := strings.Replace(sign(5, 1), `"amount":"5"`, `"amount":"6"`, 1)
	cases := map[string]struct{ body, code string }{
		"replay":         {transfer, "bad_nonce"},
		"nonce skipped":  {sign(5, 2), "bad_nonce"},
		"other chain id": {signFor(5, 1, params.EIP712Domain.ChainID+1), "wrong_signer"},
		// tx.Sign will not sign a zero amount, and the amount is checked
		// before the signature, so an edited one shows the rule.
		"zero amount":     {strings.Replace(sign(5, 1), `"amount":"5"`, `"amount":"0"`, 1), "non_positive_amount"},
		"bad signature":   {strings.Replace(sign(5, 1), `"signature":"0x`, `"signature":"0xzz`, 1), "bad_signature"},
		"overdraft":       {sign(5000, 1), "insufficient_funds"},
		"tampered amount": {tampered, "wrong_signer"},
		"unknown type":    {strings.Replace(sign(5, 1), `"Transfer"`, `"Mint"`, 1), "unknown_type"},
		"not json":        {"nope", "invalid_json"},
		"oversized":       {`{"type":"Transfer","message":{"from":"` + strings.Repeat("a", 5000) + `"}}`, "tx_too_large"},
		"over 128 KiB":    {`{"type":"Transfer","message":{"from":"` + strings.Repeat("a", 140_000) + `"}}`, "body_too_large"},
	}
	for name, c := range cases {
		res, body := do(t, "POST", srv.URL+"/api/v1/chain/txs", c.body)
		got := decodeJSON[map[string]string](t, body)
		want := 400
		if c.code == "body_too_large" {
			want = 413
		}
		if res.StatusCode != want || got["code"] != c.code || got["message"] == "" {
			t.Errorf("%s: %d %s, want %d %s", name, res.StatusCode, body, want, c.code)
		}
	}
	_, body = do(t, "GET", srv.URL+"/api/v1/accounts/"+alice.Hex(), "")
	if !strings.Contains(body, `"balance":700`) {
		t.Fatalf("a rejected transaction changed the account: %s", body)
	}
	if res, _ := do(t, "GET", srv.URL+"/api/v1/accounts/0xnothex", ""); res.StatusCode != 400 {
		t.Fatalf("bad address = %d, want 400", res.StatusCode)
	}
}
