package cli

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
	"github.com/dforge/dforge/internal/store"
)

// TestReindexEqualsLive runs a node, relays transactions through its API,
// stops it, and rebuilds the projection with `dforge reindex`, into a fresh
// database and over the live one: both equal the live projection row for
// row.
func TestReindexEqualsLive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	key, _ := crypto.GenerateKey()
	alice := crypto.PubkeyToAddress(key.PublicKey)
	bob := "0x0000000000000000000000000000000000000B0b"
	if err := Run(ctx, []string{"init", "--data", dir, "--alloc", alice.Hex() + "=1000000"}, io.Discard); err != nil {
		t.Fatal(err)
	}

	// 1. Live: the node projects each block as it commits.
	url, cancel, done := startServe(t, dir)
	relay := func(nonce uint64, kind tx.Kind, msg map[string]any) {
		msg["from"], msg["nonce"] = alice.Hex(), strconv.FormatUint(nonce, 10)
		env, err := tx.Sign(key, kind, msg, app.DefaultParams().ChainID)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(env)
		res, err := http.Post(url+"/api/v1/chain/txs", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("relay %s: %d", kind, res.StatusCode)
		}
	}
	relay(0, tx.KindTransfer, map[string]any{"to": bob, "amount": "1000"})
	relay(1, tx.KindTip, map[string]any{"to": bob, "amount": "5", "target": "user:bob"})
	relay(2, tx.KindStake, map[string]any{"amount": "300"})
	relay(3, tx.KindClaimUsername, map[string]any{"username": "alice"})
	// A forge action alice signs herself: no node acts for her.
	relay(4, tx.KindForge, map[string]any{"actor": alice.Hex(), "action": "repo.create", "payload": `{"name":"mine"}`})
	// The node registers itself too: it listens on another port than the
	// one init put into its genesis entry.
	waitRegistered(t, url)
	res, err := http.Get(url + "/api/v1/accounts/" + alice.Hex())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `"username":"alice"`) || !strings.Contains(string(body), `"balance":998695`) {
		t.Fatalf("account on the live node = %s", body)
	}
	// While the node runs, its chain is locked against a rebuild.
	if err := Run(ctx, []string{"reindex", "--data", dir, "--db", filepath.Join(t.TempDir(), "x.db")}, io.Discard); err == nil {
		t.Fatal("reindex of a running node's chain must fail")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// CometBFT may have committed an empty block after the last
	// transaction's, while the node was stopping; the live projection
	// resumes through it from the stored chain first.
	liveDSN := filepath.Join(dir, "d.db")
	catchUp(t, dir, liveDSN)
	want := dumpChainTables(t, liveDSN)
	if len(want["chain_txs"]) != 6 {
		t.Fatalf("live projection has %d transactions, want 6 (5 relayed, the node's registration)", len(want["chain_txs"]))
	}
	// Anyone may audit the chain: every forge action had its authority.
	var audit strings.Builder
	if err := Run(ctx, []string{"verify", "--data", dir}, &audit); err != nil || !strings.Contains(audit.String(), "1 forge actions: 0 failed") {
		t.Fatalf("verify: %v\n%s", err, audit.String())
	}

	// 2. Rebuilt by `dforge reindex`, into a fresh database and in place.
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	for _, dsn := range []string{fresh, liveDSN} {
		var out strings.Builder
		if err := Run(ctx, []string{"reindex", "--data", dir, "--db", dsn}, &out); err != nil {
			t.Fatalf("reindex into %s: %v", dsn, err)
		}
		if !strings.Contains(out.String(), "reindexed") {
			t.Errorf("reindex printed %q", out.String())
		}
		indextest.SameDump(t, "reindex into "+dsn, dumpChainTables(t, dsn), want)
	}
	if err := Run(ctx, []string{"reindex", "--data", t.TempDir()}, io.Discard); err == nil || !strings.Contains(err.Error(), "no genesis") {
		t.Errorf("reindex of a dir without a chain = %v", err)
	}
}

// catchUp projects into dsn whatever the stopped node in dataDir committed
// after its index stopped.
func catchUp(t *testing.T, dataDir, dsn string) {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hist, err := chain.OpenHistory(filepath.Join(dataDir, "chain"), log)
	if err != nil {
		t.Fatal(err)
	}
	defer hist.Close()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := index.New(log, st, hist).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// dumpChainTables reads every row of the chain tables in dsn as text.
func dumpChainTables(t *testing.T, dsn string) map[string][]string {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return indextest.Dump(t, st)
}
