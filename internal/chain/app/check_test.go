package app_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/tx"
)

// TestCheckTxGoesOnWhileABlockExecutes: a relayer's transactions are
// admitted while a long block executes, against the last committed state
// plus what was admitted, not the block's half-applied writes; once the
// block commits, the mempool's view starts over from it.
func TestCheckTxGoesOnWhileABlockExecutes(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	a, _ := newChain(t, alice)
	chainID := app.DefaultParams().ChainID
	block(t, a, 1, transfer(t, alice, bob.addr, 100, 0, chainID)) // the view now reads a committed version

	// A long block: 600 transfers of 1 from alice (nonces 1..600), whose
	// signatures the block recovers itself (CheckTx never saw them).
	long := make([][]byte, 600)
	for i := range long {
		long[i] = transfer(t, alice, bob.addr, 1, uint64(i+1), chainID)
	}
	var executing atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	executing.Store(true)
	go func() {
		defer wg.Done()
		defer executing.Store(false)
		res, err := a.FinalizeBlock(context.Background(), &abci.FinalizeBlockRequest{Height: 2, Txs: long})
		if err != nil || res.TxResults[len(long)-1].Code != abci.CodeTypeOK {
			t.Errorf("the long block: %v", err)
		}
	}()
	// Meanwhile bob's transfers back, one nonce after another: each is
	// judged on block 1's state (bob has 100) plus bob's admitted ones.
	admittedDuring := 0
	for nonce := uint64(0); nonce < 50 && executing.Load(); nonce++ {
		res, err := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: transfer(t, bob, alice.addr, 1, nonce, chainID)})
		if err != nil || res.Code != abci.CodeTypeOK {
			t.Fatalf("bob's transfer %d beside the block: %d %s %v", nonce, res.Code, res.Log, err)
		}
		if executing.Load() {
			admittedDuring++
		}
	}
	// Alice's next nonce in the mempool's view is still 1: the block's
	// transfers are not committed yet.
	if res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: transfer(t, alice, bob.addr, 1, 601, chainID)}); executing.Load() && res.Code != tx.CodeBadNonce {
		t.Fatalf("alice's nonce 601 beside the block: %d %s, want bad_nonce", res.Code, res.Log)
	}
	wg.Wait()
	if admittedDuring < 2 {
		t.Fatalf("only %d of bob's transfers were admitted while the block executed", admittedDuring)
	}
	if _, err := a.Commit(context.Background(), &abci.CommitRequest{}); err != nil {
		t.Fatal(err)
	}
	// After the commit: alice's nonce 601 is next; block 2 spent 600 of
	// her 900.
	if res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: transfer(t, alice, bob.addr, 300, 601, chainID)}); res.Code != abci.CodeTypeOK {
		t.Fatalf("alice's nonce 601 after the commit: %d %s", res.Code, res.Log)
	}
	if n, err := a.PendingNonce(alice.addr); err != nil || n != 602 {
		t.Fatalf("alice's pending nonce %d %v, want 602", n, err)
	}
}
