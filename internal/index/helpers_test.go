package index_test

import (
	"context"
	"crypto/ecdsa"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/store/storetest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// testParams unbond after two blocks, so a test sees an unstake mature.
var testParams = app.Params{ChainID: 7771, Symbol: "DFG", Decimals: 6, UnbondingBlocks: 2}

// databases returns the DSN of a fresh SQLite file and, when
// DFORGE_TEST_PG points at a PostgreSQL server, of a fresh database there.
func databases(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"sqlite": filepath.Join(t.TempDir(), "index.db")}
	if admin := os.Getenv("DFORGE_TEST_PG"); admin != "" {
		out["postgres"] = storetest.TestDatabase(t, admin)
	}
	return out
}

// freshDatabase returns the DSN of one more fresh database of the kind
// name ("sqlite" or "postgres") names in databases.
func freshDatabase(t *testing.T, name string) string {
	t.Helper()
	if name == "postgres" {
		return storetest.TestDatabase(t, os.Getenv("DFORGE_TEST_PG"))
	}
	return filepath.Join(t.TempDir(), "rebuilt.db")
}

// eachDatabase runs test as a parallel subtest against each of databases(t).
func eachDatabase(t *testing.T, test func(t *testing.T, name, dsn string)) {
	t.Helper()
	for name, dsn := range databases(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, name, dsn)
		})
	}
}

func openStore(t *testing.T, dsn string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	return st
}

func openChain(t *testing.T, dir string, genesis app.Genesis) *chain.Chain {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ch, err := chain.Open(ctx, chain.Config{
		Dir: dir, RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0", Genesis: genesis, Logger: quiet,
	})
	if err != nil {
		t.Fatalf("open chain: %v", err)
	}
	return ch
}

// actingIndex is liveIndex with a way to act on its chain: act relays
// action with payload as actor and waits until the index has projected it.
func actingIndex(t *testing.T, dsn string) (ix *index.Index, act func(actor common.Address, action string, payload map[string]any)) {
	t.Helper()
	op, ch, ix := liveIndex(t, dsn)
	return ix, func(actor common.Address, action string, payload map[string]any) {
		t.Helper()
		forgeAct(t, op, ch, ix, actor, action, payload)
	}
}

// liveIndex is a chain whose one operator is op and an index of it in dsn
// that follows it, all stopped when t ends.
func liveIndex(t *testing.T, dsn string) (op *wallet, ch *chain.Chain, ix *index.Index) {
	t.Helper()
	op = newWallet()
	ch = openChain(t, t.TempDir(), app.Genesis{Params: testParams, Operators: []common.Address{op.addr}})
	st := openStore(t, dsn)
	ix = index.New(quiet, st, ch.Client())
	stop := follow(t, ix)
	t.Cleanup(func() {
		stop()
		st.Close()
		ch.Close()
	})
	return op, ch, ix
}

// follow runs ix until the returned stop is called.
func follow(t *testing.T, ix *index.Index) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("index run: %v", err)
		}
	}
}

// wallet signs transactions for one key and counts its nonce.
type wallet struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

func newWallet() *wallet {
	key, _ := crypto.GenerateKey()
	return &wallet{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// sign signs a message of kind, adding from and the next nonce.
func (w *wallet) sign(t *testing.T, kind tx.Kind, msg map[string]any) tx.Envelope {
	t.Helper()
	msg["from"] = w.addr.Hex()
	msg["nonce"] = strconv.FormatUint(w.nonce, 10)
	env, err := tx.Sign(w.key, kind, msg, testParams.ChainID)
	if err != nil {
		t.Fatalf("sign %s: %v", kind, err)
	}
	return env
}

// submit signs, submits and waits until the block is projected.
func (w *wallet) submit(t *testing.T, ch *chain.Chain, ix *index.Index, kind tx.Kind, msg map[string]any) chain.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := ch.Submit(ctx, w.sign(t, kind, msg))
	if err != nil || res.Code != 0 {
		t.Fatalf("%s: %+v %v", kind, res, err)
	}
	w.nonce++
	if err := ix.WaitFor(ctx, res.Height); err != nil {
		t.Fatalf("wait for height %d: %v", res.Height, err)
	}
	return res
}

func amount(n uint64) string { return strconv.FormatUint(n, 10) }

// checkAgainstChain compares the projected accounts with the chain's state.
func checkAgainstChain(t *testing.T, ch *chain.Chain, ix *index.Index, addrs ...common.Address) {
	t.Helper()
	for _, a := range addrs {
		want, err := ch.Account(a)
		if err != nil {
			t.Fatalf("chain account: %v", err)
		}
		got, err := ix.Account(context.Background(), a)
		if err != nil {
			t.Fatalf("index account: %v", err)
		}
		wantRow := index.Account{Address: a.Hex(), Username: want.Username, Balance: want.Balance, Staked: want.Staked, Unbonding: want.Unbonding, Nonce: want.Nonce}
		if got != wantRow {
			t.Errorf("account %s: projected %+v, chain %+v", a.Hex(), got, wantRow)
		}
	}
}

// catchUp projects into st what the closed chain committed after the
// follower stopped: CometBFT may make one more (empty) block to commit the
// last app hash just after, and a rebuild from the history includes it.
func catchUp(t *testing.T, st *store.Store, hist index.Client) {
	t.Helper()
	if err := index.New(quiet, st, hist).Sync(context.Background()); err != nil {
		t.Fatalf("catch the live projection up to the history: %v", err)
	}
}
