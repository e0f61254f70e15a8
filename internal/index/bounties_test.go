package index_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
)

// TestBountiesRebuildEqualsLive funds two issues through a real node, pays
// one with a merge and refunds nothing, checks the projected bounties and
// balances against the chain, then rebuilds from the stopped node's blocks
// and compares row for row.
func TestBountiesRebuildEqualsLive(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob, op := newWallet(), newWallet(), newWallet()
		author := newWallet().addr
		genesis := app.Genesis{Params: testParams.WithDefaults(), Operators: []common.Address{op.addr}, Allocations: []ledger.Allocation{
			{Address: alice.addr, Amount: 1_000_000}, {Address: bob.addr, Amount: 1_000_000},
		}}
		dir := t.TempDir()
		ch := openChain(t, dir, genesis)
		live := openStore(t, dsn)
		defer live.Close()
		ix := index.New(quiet, live, ch.Client())
		stop := follow(t, ix)
		act := func(actor common.Address, action string, payload map[string]any) {
			t.Helper()
			forgeAct(t, op, ch, ix, actor, action, payload)
		}
		act(alice.addr, "repo.create", map[string]any{"name": "x"})
		act(alice.addr, "repo.collaborator.set", map[string]any{"repo": 1, "user": author, "permission": "write"})
		act(alice.addr, "issue.create", map[string]any{"repo": 1, "title": "broken"})
		act(alice.addr, "issue.create", map[string]any{"repo": 1, "title": "slow"})
		fund := func(w *wallet, issue, amount string) {
			t.Helper()
			w.submit(t, ch, ix, tx.KindBountyFund, map[string]any{"repo": "1", "issue": issue, "amount": amount, "expiry": "100000"})
		}
		fund(alice, "1", "300")
		fund(bob, "1", "200")
		fund(bob, "2", "700")
		act(author, "pr.create", map[string]any{"repo": 1, "title": "Fix", "body": "Fixes #1.", "headBranch": "fix", "headSha": sha2, "baseSha": sha1})
		act(alice.addr, "pr.merge", map[string]any{"repo": 1, "number": 3, "style": "merge", "mergeSha": sha3})

		open, total, err := ix.Bounties(ctx, index.BountyFilter{Status: bounty.StatusOpen}, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 1 || len(open) != 1 || open[0].Number != 2 || open[0].Total != 700 {
			t.Fatalf("open bounties = %+v (total %d) %v", open, total, err)
		}
		paid, ok, err := ix.BountyOf(ctx, 1, 1)
		if err != nil || !ok || paid.Status != bounty.StatusPaid || paid.PaidAmount != 500 || paid.PaidTo == nil || paid.PaidTo.Address != author.Hex() ||
			len(paid.Funders) != 2 || paid.Funders[0].Amount != 300 || paid.IssueState != forge.StateClosed {
			t.Fatalf("paid bounty = %+v %v %v", paid, ok, err)
		}
		checkAgainstChain(t, ch, ix, alice.addr, bob.addr, author, app.BountyEscrowAddress)
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
		want := indextest.Dump(t, live)
		if len(want["bounties"]) != 2 || len(want["bounty_funders"]) != 3 {
			t.Fatalf("bounty rows: %v", want["bounties"])
		}
		rebuilt := openStore(t, freshDatabase(t, name))
		defer rebuilt.Close()
		if _, err := index.Rebuild(ctx, quiet, rebuilt, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "fresh rebuild", indextest.Dump(t, rebuilt), want)
		if _, err := index.Rebuild(ctx, quiet, live, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "rebuild in place", indextest.Dump(t, live), want)
	})
}
