package index_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
)

// unsavedTipChain serves a scripted chain whose newest block is stored but
// whose results are not saved until save is called: the moment between
// CometBFT storing a block and the app saving what it did.
type unsavedTipChain struct {
	*scriptedChain
	saved atomic.Bool
}

func (c *unsavedTipChain) BlockResults(ctx context.Context, h *int64) (*ctypes.ResultBlockResults, error) {
	if *h == int64(len(c.blocks)) && !c.saved.Load() {
		return nil, errors.New("could not find results for height")
	}
	return c.scriptedChain.BlockResults(ctx, h)
}

// TestSyncLeavesAnUnsavedTipForLater: Sync projects every block up to the
// one whose results are not saved yet, says nothing failed, and projects
// that block on a later call once they are.
func TestSyncLeavesAnUnsavedTipForLater(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		c := &unsavedTipChain{scriptedChain: newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1_000}}})}
		for n := 1; n <= 3; n++ {
			transfer := alice.sign(t, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(uint64(n))})
			alice.nonce++
			c.add(nil, item{raw: encoded(t, transfer), events: []abci.Event{event("Transfer", "from", alice.addr.Hex(), "to", bob.addr.Hex(), "amount", amount(uint64(n)))}})
		}
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, c)

		if err := ix.Sync(ctx); err != nil {
			t.Fatalf("sync with the tip's results unsaved: %v", err)
		}
		if h := ix.Height(); h != 2 {
			t.Fatalf("projected height %d with block 3's results unsaved, want 2", h)
		}
		c.saved.Store(true)
		if err := ix.Sync(ctx); err != nil {
			t.Fatalf("sync once the results are saved: %v", err)
		}
		if h := ix.Height(); h != 3 {
			t.Fatalf("projected height %d once block 3's results are saved, want 3", h)
		}
	})
}
