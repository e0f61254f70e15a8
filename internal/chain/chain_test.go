package chain_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

func open(t *testing.T, dir string, genesis app.Genesis) *chain.Chain {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := chain.Open(ctx, chain.Config{
		Dir: dir, RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0", Genesis: genesis,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatalf("open chain: %v", err)
	}
	return c
}

// TestTransfersCommitAndSurviveRestart drives a real single-validator
// CometBFT node: a signed transfer commits, a replay is refused with its
// code, and after a restart the balances and nonces are still there.
func TestTransfersCommitAndSurviveRestart(t *testing.T) {
	key, _ := crypto.GenerateKey()
	alice := crypto.PubkeyToAddress(key.PublicKey)
	bob := common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	genesis := app.Genesis{Params: app.DefaultParams(), Allocations: []ledger.Allocation{{Address: alice, Amount: 1_000_000}}}
	chainID := genesis.Params.ChainID
	send := func(c *chain.Chain, amount, nonce uint64) (chain.Result, error) {
		env, err := tx.Sign(key, tx.KindTransfer, map[string]any{
			"from": alice.Hex(), "to": bob.Hex(), "amount": strconv.FormatUint(amount, 10), "nonce": strconv.FormatUint(nonce, 10),
		}, chainID)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		return c.Submit(ctx, env)
	}
	dir := t.TempDir()
	c := open(t, dir, genesis)
	res, err := send(c, 400_000, 0)
	if err != nil || res.Code != 0 || res.Height < 1 || res.Hash == "" {
		t.Fatalf("transfer: %+v %v", res, err)
	}
	if _, err := send(c, 400_000, 0); !errors.Is(err, &tx.Error{Code: tx.CodeBadNonce}) {
		t.Fatalf("the same signed bytes again: %v, want bad_nonce", err)
	}
	if _, err := send(c, 1, 0); !errors.Is(err, &tx.Error{Code: tx.CodeBadNonce}) {
		t.Fatalf("replay: %v, want bad_nonce", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}

	c = open(t, dir, genesis)
	defer c.Close()
	acct, err := c.Account(alice)
	if err != nil || acct.Balance != 600_000 || acct.Nonce != 1 {
		t.Fatalf("after restart alice = %+v %v, want 600000 nonce 1", acct, err)
	}
	if res, err := send(c, 100_000, 1); err != nil || res.Code != 0 {
		t.Fatalf("transfer after restart: %+v %v", res, err)
	}
	if b, _ := c.Account(bob); b.Balance != 500_000 {
		t.Fatalf("bob = %d, want 500000", b.Balance)
	}
}

// TestHeadersCarryTheAppVersion drives a real CometBFT node on a chain
// born with every known upgrade: its blocks' headers carry the app
// version the genesis set (2, from app-version), before and after a
// restart, as the application's Info says.
func TestHeadersCarryTheAppVersion(t *testing.T) {
	key, _ := crypto.GenerateKey()
	alice := crypto.PubkeyToAddress(key.PublicKey)
	genesis := app.Genesis{Params: app.DefaultParams(), Allocations: []ledger.Allocation{{Address: alice, Amount: 1_000}}, Upgrades: upgrade.All()}
	dir := t.TempDir()
	for nonce := range uint64(2) {
		c := open(t, dir, genesis)
		env, err := tx.Sign(key, tx.KindTransfer, map[string]any{
			"from": alice.Hex(), "to": common.HexToAddress("0xb0b").Hex(), "amount": "1", "nonce": strconv.FormatUint(nonce, 10),
		}, genesis.Params.ChainID)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := c.Submit(ctx, env)
		if err != nil || res.Code != 0 {
			cancel()
			t.Fatalf("transfer %d: %+v %v", nonce, res, err)
		}
		block, err := c.Client().Block(ctx, &res.Height)
		if err != nil {
			cancel()
			t.Fatalf("read block %d: %v", res.Height, err)
		}
		info, err := c.Client().ABCIInfo(ctx)
		cancel()
		if err != nil {
			t.Fatalf("abci info: %v", err)
		}
		if got := block.Block.Header.Version.App; got != 2 || info.Response.AppVersion != 2 {
			t.Fatalf("block %d (start %d): header app version %d, Info %d, want 2", res.Height, nonce+1, got, info.Response.AppVersion)
		}
		if err := c.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
	}
}
