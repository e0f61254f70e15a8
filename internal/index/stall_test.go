package index_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"

	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/logtest"
)

// fixableChain serves a scripted chain whose block bad has broken results
// until fix is called: a committed block the index cannot project, then
// the operator's (or a new binary's) fix.
type fixableChain struct {
	*scriptedChain
	bad    int64
	broken *ctypes.ResultBlockResults
	fixed  atomic.Bool
}

func (c *fixableChain) BlockResults(ctx context.Context, h *int64) (*ctypes.ResultBlockResults, error) {
	if *h == c.bad && !c.fixed.Load() {
		return c.broken, nil
	}
	return c.scriptedChain.BlockResults(ctx, h)
}

// eventually fails the test unless cond holds within 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// TestStuckBlockIsReportedAndRecovers: a committed block whose projection
// fails leaves the index at the block before, reported by Stall and to
// WaitFor at once, logged once at ERROR however often it is retried; reads
// keep working, and once the block can be projected the index moves on.
func TestStuckBlockIsReportedAndRecovers(t *testing.T) {
	t.Parallel()
	// Block 2 records junk bytes the chain refused. Broken, its results
	// claim they applied with an undecodable forge event, or carry a NUL in
	// the log, which PostgreSQL's text columns refuse (SQLite stores it).
	junk := []byte("junk")
	cases := []struct {
		name   string
		pgOnly bool
		bad    item
	}{
		{"undecodable forge event", false, item{raw: junk, events: []abci.Event{event(chainforge.EventType, chainforge.AttrData, "{")}}},
		{"NUL in the log", true, item{raw: junk, code: uint32(tx.CodeInvalidEncoding), log: "not a\x00transaction"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for name, dsn := range databases(t) {
				if tc.pgOnly && name != "postgres" {
					continue // only PostgreSQL refuses this block
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					testStuckBlock(t, dsn, junk, tc.bad)
				})
			}
		})
	}
}

func testStuckBlock(t *testing.T, dsn string, junk []byte, bad item) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	alice := newWallet()
	c := newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 7}}})
	c.add(nil)
	c.add(nil, item{raw: junk, code: uint32(tx.CodeInvalidEncoding), log: "not a transaction"})
	c.add(nil)
	broken := *c.results[1]
	broken.TxResults = []*abci.ExecTxResult{{Code: bad.code, Log: bad.log, Events: bad.events}}
	chain := &fixableChain{scriptedChain: c, bad: 2, broken: &broken}

	var logs logtest.Buffer
	st := openStore(t, dsn)
	defer st.Close()
	ix := index.New(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})), st, chain)
	index.SetRetry(ix, time.Millisecond, 20*time.Millisecond)
	stop := follow(t, ix)
	defer stop()

	// 1. The stall is reported, the height stays, and a write waiting for
	// a later block hears of it at once instead of waiting it out.
	eventually(t, "the stall is reported", func() bool { return ix.Stall() != nil })
	if s := ix.Stall(); s.Height != 2 || s.Err == nil || ix.Height() != 1 {
		t.Fatalf("stall = %+v at height %d, want block 2 stuck at height 1", s, ix.Height())
	}
	err := ix.WaitFor(ctx, 3)
	var stall *index.Stall
	if !errors.As(err, &stall) || stall.Height != 2 || !strings.Contains(err.Error(), "block 2") {
		t.Fatalf("WaitFor(3) = %v, want the stall at block 2", err)
	}

	// 2. Retries go on, logged once at ERROR (then only at DEBUG).
	eventually(t, "three retries", func() bool { return logs.Count("level=DEBUG", "height=2") >= 3 })
	if n := logs.Count("level=ERROR", "height=2"); n != 1 {
		t.Fatalf("%d ERROR lines for the stuck block, want 1:\n%s", n, logs.String())
	}
	if ix.Height() != 1 {
		t.Fatalf("height = %d after retries, want 1", ix.Height())
	}

	// 3. Reads keep working on what is projected.
	if blk, err := ix.Block(ctx, 1); err != nil || blk.Height != 1 {
		t.Fatalf("block 1 = %+v %v", blk, err)
	}

	// 4. Once the block can be projected, the index catches up by itself.
	chain.fixed.Store(true)
	if err := ix.WaitFor(ctx, 3); err != nil {
		// The stall may still stand until the next retry: wait on.
		eventually(t, "the index passes the fixed block", func() bool { return ix.Height() >= 3 })
	}
	if s := ix.Stall(); s != nil {
		t.Fatalf("stall = %+v after recovery, want none", s)
	}
	if n := logs.Count("level=INFO", "height=2"); n != 1 {
		t.Fatalf("%d INFO lines for the recovery, want 1:\n%s", n, logs.String())
	}
}
