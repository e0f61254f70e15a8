package index_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
)

// TestCommunityRolesProjection: the genesis holders are projected at the
// genesis height with proposal 0, a passed grant adds a row with its
// proposal, a revocation removes one, a failed grant changes nothing, the
// overview counts them, and a rebuild gives the same rows.
func TestCommunityRolesProjection(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice := newWallet()
		organizer, bob := newWallet().addr, newWallet().addr
		genesis := app.Genesis{Params: govParams(), Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1_000_000}},
			Roles: []roles.Grant{{Address: organizer, Role: roles.EventOrganizer}}}
		dir := t.TempDir()
		ch := openChain(t, dir, genesis)
		live := openStore(t, dsn)
		defer live.Close()
		ix := index.New(quiet, live, ch.Client())
		stop := follow(t, ix)
		if err := ix.WaitFor(ctx, 0); err != nil {
			t.Fatal(err)
		}
		checkHolders(t, ix, "", holderRow{organizer, roles.EventOrganizer, 0})

		alice.submit(t, ch, ix, tx.KindStake, map[string]any{"amount": amount(10_000)})
		pass := func(id uint64, account common.Address, role, action string) index.Proposal {
			t.Helper()
			alice.submit(t, ch, ix, tx.KindPropose, map[string]any{"proposalType": "role", "title": "Role", "description": "",
				"payload": `{"account":"` + account.Hex() + `","role":"` + role + `","action":"` + action + `"}`, "deposit": amount(1_000)})
			alice.submit(t, ch, ix, tx.KindVote, map[string]any{"proposal": strconv.FormatUint(id, 10), "option": "yes"})
			return untilProposal(t, alice, ch, ix, id)
		}
		if p := pass(1, bob, roles.Ambassador, "grant"); p.Status != gov.StatusExecuted {
			t.Fatalf("the grant: %+v", p)
		}
		checkHolders(t, ix, "", holderRow{organizer, roles.EventOrganizer, 0}, holderRow{bob, roles.Ambassador, 1})
		checkHolders(t, ix, roles.Ambassador, holderRow{bob, roles.Ambassador, 1})
		if p := pass(2, organizer, roles.EventOrganizer, "grant"); p.Status != gov.StatusFailed || p.Failure == "" {
			t.Fatalf("granting a held role: %+v", p)
		}
		if p := pass(3, organizer, roles.EventOrganizer, "revoke"); p.Status != gov.StatusExecuted {
			t.Fatalf("the revocation: %+v", p)
		}
		checkHolders(t, ix, "", holderRow{bob, roles.Ambassador, 1})
		o, err := ix.CommunityOverview(ctx)
		if err != nil || o.Proposals != 3 || o.OpenProposals != 0 || len(o.RoleCounts) != 3 ||
			o.RoleCounts[0] != (index.RoleCount{Role: roles.ForumModerator}) || o.RoleCounts[1] != (index.RoleCount{Role: roles.EventOrganizer}) ||
			o.RoleCounts[2] != (index.RoleCount{Role: roles.Ambassador, Holders: 1}) {
			t.Fatalf("overview = %+v %v", o, err)
		}

		// A rebuild from the stored chain, fresh and in place, gives the same rows.
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
		if err := index.New(quiet, live, hist).Sync(ctx); err != nil {
			t.Fatal(err)
		}
		want := indextest.Dump(t, live)
		if len(want["community_roles"]) != 1 {
			t.Fatalf("community_roles: %v", want["community_roles"])
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

type holderRow struct {
	addr     common.Address
	role     string
	proposal uint64
}

// checkHolders compares RoleHolders (of role, every role for "") with want, in order.
func checkHolders(t *testing.T, ix *index.Index, role string, want ...holderRow) {
	t.Helper()
	got, total, err := ix.RoleHolders(context.Background(), role, index.Page{Number: 1, Limit: 10})
	if err != nil || total != int64(len(want)) || len(got) != len(want) {
		t.Fatalf("holders of %q: %+v (total %d) %v, want %+v", role, got, total, err, want)
	}
	for i, w := range want {
		h := got[i]
		if h.Address != w.addr.Hex() || h.Role != w.role || h.Proposal != w.proposal || h.Username == "" || h.Granted == "" {
			t.Fatalf("holder %d of %q: %+v, want %+v", i, role, h, w)
		}
		if w.proposal == 0 && h.Height != 0 {
			t.Fatalf("a genesis holder at height %d", h.Height)
		}
	}
}
