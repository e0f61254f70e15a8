package app_test

import (
	"context"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/tx"
)

// While a block executes (consensus's lock held), CheckTx and the
// relayer's reads still answer from the last commit plus the admitted
// transactions, so an action sent then can make the next proposal.
func TestCheckTxAnswersWhileABlockExecutes(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	a, _ := newChain(t, alice)
	chainID := app.DefaultParams().ChainID
	block(t, a, 1, transfer(t, alice, bob.addr, 100, 0, chainID))

	release := app.HoldConsensus(a)
	defer release()
	answered := make(chan string, 1)
	go func() {
		ctx := context.Background()
		ok, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: transfer(t, alice, bob.addr, 100, 1, chainID)})
		// 1000 - 100 - 100 leaves 800: the admitted one counts.
		over, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: transfer(t, alice, bob.addr, 801, 2, chainID)})
		pre := a.Precheck(transfer(t, alice, bob.addr, 100, 2, chainID))
		nonce, err := a.PendingNonce(alice.addr)
		if ok.Code != abci.CodeTypeOK || over.Code != tx.CodeInsufficientFunds || pre != nil || nonce != 2 || err != nil {
			answered <- "wrong answers: " + ok.Log + " / " + over.Log
			return
		}
		answered <- ""
	}()
	select {
	case msg := <-answered:
		if msg != "" {
			t.Fatal(msg)
		}
	case <-time.After(30 * time.Second): // a deadlock guard, not a timing target
		t.Fatal("CheckTx waited for the block's lock")
	}
}

// A block's commit moves the mempool's view: what the block holds is
// committed, and the admitted transactions are counted anew by recheck.
func TestCommitMovesTheMempoolView(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	a, _ := newChain(t, alice)
	chainID := app.DefaultParams().ChainID
	first := transfer(t, alice, bob.addr, 100, 0, chainID)
	if res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: first}); res.Code != abci.CodeTypeOK {
		t.Fatalf("before the first block: %d %s", res.Code, res.Log)
	}
	block(t, a, 1, first)
	if n, err := a.PendingNonce(alice.addr); n != 1 || err != nil {
		t.Fatalf("pending nonce after the commit = %d %v, want 1", n, err)
	}
	res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: first, Type: abci.CHECK_TX_TYPE_RECHECK})
	if res.Code != tx.CodeBadNonce {
		t.Fatalf("recheck of the committed transfer = %d %s, want bad nonce", res.Code, res.Log)
	}
}
