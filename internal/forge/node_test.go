package forge_test

import (
	"context"
	"crypto/ecdsa"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/private"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

var testParams = app.Params{ChainID: 7771, Symbol: "DFG", Decimals: 6, UnbondingBlocks: 2}

// node is one running dForge node as serve wires it: the chain, the SQL
// index following it, and the forge service over both.
type node struct {
	dir   string
	chain *chain.Chain
	store *store.Store
	index *index.Index
	forge *forge.Service
}

func operatorKey(t *testing.T, dir string) *ecdsa.PrivateKey {
	t.Helper()
	key, err := chain.LoadOrCreateOperatorKey(chain.OperatorKeyFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// startNode runs a node in dir; cfg.Dir defaults to dir/chain.
func startNode(t *testing.T, dir string, cfg chain.Config) *node {
	t.Helper()
	forgetest.Long(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if cfg.Dir == "" {
		cfg.Dir = filepath.Join(dir, "chain")
	}
	cfg.Logger = quiet
	ch, err := chain.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("open chain: %v", err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "dforge.db"))
	if err != nil {
		ch.Close()
		t.Fatal(err)
	}
	ix := index.New(quiet, st, ch.Client())
	ixCtx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ix.Run(ixCtx) }()
	priv, err := private.Open(filepath.Join(dir, "private"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := forge.New(ctx, forge.Config{Chain: ch, Index: ix, OperatorKey: operatorKey(t, dir), Private: priv, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	n := &node{dir: dir, chain: ch, store: st, index: ix, forge: svc}
	t.Cleanup(func() {
		stop()
		<-done
		svc.Close()
		ch.Close()
		st.Close()
	})
	return n
}

// singleNode runs a one-validator chain whose genesis lists the node's
// operator key.
func singleNode(t *testing.T) *node {
	t.Helper()
	dir := t.TempDir()
	op := crypto.PubkeyToAddress(operatorKey(t, dir).PublicKey)
	return startNode(t, dir, chain.Config{
		RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0",
		Genesis: app.Genesis{Params: testParams, Operators: []common.Address{op}},
	})
}

func newAddress() (common.Address, *ecdsa.PrivateKey) {
	key, _ := crypto.GenerateKey()
	return crypto.PubkeyToAddress(key.PublicKey), key
}
