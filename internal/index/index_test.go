package index_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
)

// TestProjectionFollowsTheChain drives a real single-validator node through
// every transaction type and checks the projection after each block,
// against the expected figures and against the chain's own state.
func TestProjectionFollowsTheChain(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		genesis := app.Genesis{Params: testParams, Allocations: []ledger.Allocation{
			{Address: alice.addr, Amount: 1_000_000}, {Address: bob.addr, Amount: 500_000},
		}}
		ch := openChain(t, t.TempDir(), genesis)
		defer ch.Close()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, ch.Client())
		defer follow(t, ix)()

		// 1. The genesis allocations are the accounts at height 0.
		if err := ix.WaitFor(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if a, _ := ix.Account(ctx, alice.addr); a.Balance != 1_000_000 || a.Username != names.LegacyDefault(alice.addr) {
			t.Fatalf("alice at genesis = %+v", a)
		}

		// 2. A transfer and a tip.
		transfer := alice.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(100_000)})
		tip := bob.submit(t, ch, ix, tx.KindTip, map[string]any{"to": alice.addr.Hex(), "amount": amount(5_000), "target": "user:alice"})
		got, err := ix.Tx(ctx, tip.Hash)
		if err != nil {
			t.Fatal(err)
		}
		want := index.Tx{Hash: tip.Hash, Height: tip.Height, Index: 0, Type: "Tip", From: bob.addr.Hex(), To: alice.addr.Hex(),
			Amount: 5_000, Target: "user:alice", Nonce: 0, Code: 0, Time: got.Time}
		if got != want || got.Time == "" {
			t.Fatalf("tip = %+v, want %+v", got, want)
		}
		tips, total, err := ix.Txs(ctx, index.TxFilter{Target: "user:alice"}, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 1 || len(tips) != 1 || tips[0].Hash != tip.Hash {
			t.Fatalf("tips of user:alice = %+v (total %d) %v", tips, total, err)
		}

		// 3. Stake, then unstake: the amount unbonds for two blocks.
		alice.submit(t, ch, ix, tx.KindStake, map[string]any{"amount": amount(200_000)})
		unstake := alice.submit(t, ch, ix, tx.KindUnstake, map[string]any{"amount": amount(50_000)})
		if a, _ := ix.Account(ctx, alice.addr); a.Staked != 150_000 || a.Unbonding != 50_000 || a.Balance != 705_000 {
			t.Fatalf("alice after unstake = %+v", a)
		}
		// CometBFT may add an empty block after one that changed the app
		// hash, so the next transactions land one or two blocks later.
		deposit := alice.submit(t, ch, ix, tx.KindTreasuryDeposit, map[string]any{"amount": amount(1_000)})
		// The account is read at whatever height is projected by then
		// (maybe an empty block past the deposit), so the check is on that
		// height, read after the account: heights only grow.
		a, _ := ix.Account(ctx, alice.addr)
		if projected := ix.Height(); a.Unbonding != 50_000 && projected < unstake.Height+2 {
			t.Fatalf("unbonding matured early, by height %d (deposit at %d): %+v", projected, deposit.Height, a)
		}
		bob.submit(t, ch, ix, tx.KindClaimUsername, map[string]any{"username": "Bobby"})
		if a, _ := ix.Account(ctx, alice.addr); a.Unbonding != 0 || a.Balance != 754_000 {
			t.Fatalf("alice after the unbonding matured = %+v", a)
		}

		// 4. Usernames: claimed names and defaults resolve, any case.
		alice.submit(t, ch, ix, tx.KindClaimUsername, map[string]any{"username": "alice"})
		for name, owner := range map[string]common.Address{"BOBBY": bob.addr, "Alice": alice.addr} {
			if got, ok, err := ix.AddressOf(ctx, name); err != nil || !ok || got != owner {
				t.Errorf("AddressOf(%q) = %s %v %v, want %s", name, got.Hex(), ok, err, owner.Hex())
			}
		}
		if _, ok, _ := ix.AddressOf(ctx, names.LegacyDefault(bob.addr)); ok {
			t.Error("bob's default name still resolves after his claim")
		}
		if u, _ := ix.Username(ctx, bob.addr); u != "Bobby" {
			t.Errorf("bob's username = %q", u)
		}

		// 5. A rejected transaction is not in any block, so not projected.
		ctx5, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if _, err := ch.Submit(ctx5, alice.sign(t, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(10_000_000)})); !errors.Is(err, &tx.Error{Code: tx.CodeInsufficientFunds}) {
			t.Fatalf("overdraft: %v", err)
		}

		// 6. Everything agrees with the chain, and the lists add up.
		checkAgainstChain(t, ch, ix, alice.addr, bob.addr, app.TreasuryAddress)
		s, err := ix.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s.Supply != 1_500_000 || s.Staked != 150_000 || s.Unbonding != 0 || s.Treasury.Balance != 1_000 || s.Accounts != 3 || s.Validators != 1 || s.Height == 0 || s.Height > ix.Height() || s.AppHash == "" {
			t.Fatalf("status = %+v", s)
		}
		aliceTxs, total, err := ix.Txs(ctx, index.TxFilter{Address: &alice.addr}, index.Page{Number: 1, Limit: 100})
		if err != nil || total != 6 || len(aliceTxs) != 6 || aliceTxs[len(aliceTxs)-1].Hash != transfer.Hash {
			t.Fatalf("alice's history: %d (total %d) %v, oldest %+v", len(aliceTxs), total, err, aliceTxs[len(aliceTxs)-1])
		}
		blocks, total, err := ix.Blocks(ctx, index.Page{Number: 1, Limit: 3})
		if err != nil || total < s.Height || len(blocks) != 3 || blocks[0].Height != total {
			t.Fatalf("blocks = %+v (total %d) %v", blocks, total, err)
		}
		b, err := ix.Block(ctx, transfer.Height)
		if err != nil || len(b.Transactions) != 1 || b.Transactions[0].Hash != transfer.Hash || b.Txs != 1 {
			t.Fatalf("block %d = %+v %v", transfer.Height, b, err)
		}
	})
}

// TestRestartResumes closes the node, the index and the database between
// two runs and checks the second run continues from the projected height
// instead of starting over, with nothing applied twice.
func TestRestartResumes(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		genesis := app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1_000}}}
		dir := t.TempDir()
		run := func(transfers int) (height int64) {
			ch := openChain(t, dir, genesis)
			defer ch.Close()
			st := openStore(t, dsn)
			defer st.Close()
			ix := index.New(quiet, st, ch.Client())
			defer follow(t, ix)()
			var res chain.Result
			for range transfers {
				res = alice.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(10)})
			}
			checkAgainstChain(t, ch, ix, alice.addr, bob.addr)
			return res.Height
		}
		first := run(2)

		// A mark in a projected row: a resumed index keeps it, a rebuilt
		// one would erase it.
		st := openStore(t, dsn)
		if _, err := st.DB().ExecContext(ctx, `UPDATE chain_blocks SET proposer = 'MARK' WHERE height = $1`, first); err != nil {
			t.Fatal(err)
		}
		st.Close()

		last := run(1)
		st = openStore(t, dsn)
		defer st.Close()
		// Every height once, from 1 to the projected height, which includes
		// the last transaction's block (CometBFT may add an empty one).
		var blocks, top, projected, txs, hashes int64
		var proposer string
		err := st.DB().QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM chain_blocks), (SELECT MAX(height) FROM chain_blocks),
			(SELECT height FROM chain_index), (SELECT COUNT(*) FROM chain_txs), (SELECT COUNT(DISTINCT hash) FROM chain_txs),
			(SELECT proposer FROM chain_blocks WHERE height = $1)`, first).
			Scan(&blocks, &top, &projected, &txs, &hashes, &proposer)
		if err != nil {
			t.Fatal(err)
		}
		if blocks != top || top != projected || top < last || txs != 3 || hashes != 3 || proposer != "MARK" {
			t.Fatalf("after restart: %d blocks up to %d (projected %d, last tx at %d), %d txs, %d hashes, proposer %q",
				blocks, top, projected, last, txs, hashes, proposer)
		}
	})
}

// TestRebuildEqualsLive builds the projection live, stops the node, then
// rebuilds it from the chain's stored blocks into a fresh database and
// into the live one, and compares them row for row.
func TestRebuildEqualsLive(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		genesis := app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1_000_000}}}
		dir := t.TempDir()

		// 1. Live: every kind of transaction, an unbonding that matures.
		ch := openChain(t, dir, genesis)
		live := openStore(t, dsn)
		defer live.Close()
		ix := index.New(quiet, live, ch.Client())
		stop := follow(t, ix)
		alice.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": bob.addr.Hex(), "amount": amount(100_000)})
		bob.submit(t, ch, ix, tx.KindTip, map[string]any{"to": alice.addr.Hex(), "amount": amount(1), "target": "repo:alice/x"})
		alice.submit(t, ch, ix, tx.KindStake, map[string]any{"amount": amount(5_000)})
		alice.submit(t, ch, ix, tx.KindUnstake, map[string]any{"amount": amount(2_000)})
		alice.submit(t, ch, ix, tx.KindClaimUsername, map[string]any{"username": "alice"})
		bob.submit(t, ch, ix, tx.KindTreasuryDeposit, map[string]any{"amount": amount(7)})
		alice.submit(t, ch, ix, tx.KindClaimUsername, map[string]any{"username": names.LegacyDefault(alice.addr)})
		stop()
		if err := ch.Close(); err != nil {
			t.Fatal(err)
		}
		hist, err := chain.OpenHistory(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer hist.Close()
		catchUp(t, live, hist)
		// CometBFT may have committed an empty block after the last
		// transaction's; the live index resumes through it from the
		// stored chain.
		resumed := index.New(quiet, live, hist)
		if err := resumed.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		want := indextest.Dump(t, live)

		// 2. Rebuilt from the stopped node's blocks, into a fresh database
		// of the same engine and into the live one.
		rebuilt := openStore(t, freshDatabase(t, name))
		defer rebuilt.Close()
		h, err := index.Rebuild(ctx, quiet, rebuilt, hist)
		if err != nil || h != resumed.Height() {
			t.Fatalf("rebuild into a fresh database: height %d %v, want %d", h, err, resumed.Height())
		}
		indextest.SameDump(t, "fresh rebuild", indextest.Dump(t, rebuilt), want)
		if _, err := index.Rebuild(ctx, quiet, live, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "rebuild in place", indextest.Dump(t, live), want)
	})
}
