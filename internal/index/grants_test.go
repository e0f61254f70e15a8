package index_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
)

// grantPayload is a grant proposal's payload paying each amount to to.
func grantPayload(expiry int64, to common.Address, reviewers []common.Address, amounts ...uint64) string {
	ms := make([]map[string]string, len(amounts))
	for i, a := range amounts {
		ms[i] = map[string]string{"description": "Part " + strconv.Itoa(i+1), "amount": strconv.FormatUint(a, 10), "recipient": to.Hex()}
	}
	raw, _ := json.Marshal(ms)
	names := make([]string, len(reviewers))
	for i, r := range reviewers {
		names[i] = r.Hex()
	}
	p, _ := json.Marshal(map[string]string{"milestones": string(raw), "reviewers": strings.Join(names, ","), "expiry": strconv.FormatInt(expiry, 10)})
	return string(p)
}

// untilGrant submits cheap transfers until grant id is in status.
func untilGrant(t *testing.T, w *wallet, ch *chain.Chain, ix *index.Index, id uint64, status string) index.GrantInfo {
	t.Helper()
	for range 60 {
		g, err := ix.Grant(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status == status {
			return g
		}
		w.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": w.addr.Hex(), "amount": amount(1)})
	}
	t.Fatalf("grant #%d is not %s after 60 blocks", id, status)
	return index.GrantInfo{}
}

// TestGrantsRebuildEqualsLive drives a grant through a real node (passed
// and escrowed, a milestone released by two of three reviewers, the rest
// returned at expiry) and one the treasury cannot pay, checks the
// projection and the balances against the chain, then rebuilds from the
// stopped node's blocks and compares row for row.
func TestGrantsRebuildEqualsLive(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, r1, r2, r3 := newWallet(), newWallet(), newWallet(), newWallet()
		bob := newWallet().addr
		genesis := app.Genesis{Params: govParams(), Allocations: []ledger.Allocation{
			{Address: alice.addr, Amount: 1_000_000}, {Address: app.TreasuryAddress, Amount: 10_000},
		}}
		dir := t.TempDir()
		ch := openChain(t, dir, genesis)
		live := openStore(t, dsn)
		defer live.Close()
		ix := index.New(quiet, live, ch.Client())
		stop := follow(t, ix)

		// 1. Proposed, passed, escrowed.
		staked := alice.submit(t, ch, ix, tx.KindStake, map[string]any{"amount": amount(30_000)})
		expiry := staked.Height + 40
		reviewers := []common.Address{r1.addr, r2.addr, r3.addr}
		alice.submit(t, ch, ix, tx.KindPropose, map[string]any{"proposalType": "grant", "title": "Docs", "description": "Write them.",
			"payload": grantPayload(expiry, bob, reviewers, 1_000, 2_000), "deposit": amount(1_000)})
		if g, err := ix.Grant(ctx, 1); err != nil || g.Status != index.GrantProposed || g.Total != 3_000 || len(g.Milestones) != 2 ||
			g.Milestones[1].Amount != 2_000 || g.Milestones[1].Recipient.Address != bob.Hex() || g.Expiry != expiry {
			t.Fatalf("proposed grant = %+v %v", g, err)
		}
		alice.submit(t, ch, ix, tx.KindVote, map[string]any{"proposal": "1", "option": "yes"})
		untilGrant(t, alice, ch, ix, 1, "active")
		checkAgainstChain(t, ch, ix, app.TreasuryAddress, app.GrantEscrowAddress, alice.addr)

		// 2. A grant the treasury cannot pay: rejected, with the reason.
		alice.submit(t, ch, ix, tx.KindPropose, map[string]any{"proposalType": "grant", "title": "Too much", "description": "",
			"payload": grantPayload(expiry, bob, reviewers, 1_000_000), "deposit": amount(1_000)})
		alice.submit(t, ch, ix, tx.KindVote, map[string]any{"proposal": "2", "option": "yes"})
		if g := untilGrant(t, alice, ch, ix, 2, index.GrantRejected); !strings.Contains(g.Failure, "the treasury holds") {
			t.Fatalf("unpaid grant = %+v", g)
		}

		// 3. Two of three reviewers release milestone 0; one approves 1.
		approve := func(w *wallet, m string) {
			w.submit(t, ch, ix, tx.KindGrantApprove, map[string]any{"grant": "1", "milestone": m})
		}
		approve(r1, "0")
		approve(r3, "1")
		approve(r2, "0")
		g, err := ix.Grant(ctx, 1)
		if err != nil || g.Released != 1_000 || !g.Milestones[0].Released || len(g.Milestones[0].Approvals) != 2 ||
			g.Milestones[0].Approvals[0].Reviewer.Address != r1.addr.Hex() || len(g.Milestones[1].Approvals) != 1 {
			t.Fatalf("grant after the release = %+v %v", g, err)
		}
		checkAgainstChain(t, ch, ix, bob, app.GrantEscrowAddress)

		// 4. The expiry returns the rest.
		if g := untilGrant(t, alice, ch, ix, 1, "expired"); g.Refunded != 2_000 || g.Released != 1_000 {
			t.Fatalf("expired grant = %+v", g)
		}
		checkAgainstChain(t, ch, ix, alice.addr, bob, app.TreasuryAddress, app.GrantEscrowAddress, app.EscrowAddress)
		list, total, err := ix.Grants(ctx, "", index.Page{Number: 1, Limit: 10})
		if err != nil || total != 2 || len(list) != 2 || list[0].ID != 2 || list[1].ID != 1 {
			t.Fatalf("grants = %+v (total %d) %v", list, total, err)
		}
		stop()
		if err := ch.Close(); err != nil {
			t.Fatal(err)
		}

		// 5. Rebuilt from the blocks, into a fresh database and in place.
		hist, err := chain.OpenHistory(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer hist.Close()
		catchUp(t, live, hist)
		if err := index.New(quiet, live, hist).Sync(ctx); err != nil {
			t.Fatal(err)
		}
		want := indextest.Dump(t, live)
		if len(want["grants"]) != 2 || len(want["grant_milestones"]) != 3 || len(want["grant_approvals"]) != 3 {
			t.Fatalf("grant rows: %d grants, %d milestones, %d approvals", len(want["grants"]), len(want["grant_milestones"]), len(want["grant_approvals"]))
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
