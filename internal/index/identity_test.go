package index_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
	"github.com/dforge/dforge/internal/index"
)

// Two addresses sharing 64 bits, more than anyone grinds: one account each.
var (
	twinA = common.HexToAddress("0x70997970c51812dc00000000000000000000aaaa")
	twinB = common.HexToAddress("0x70997970c51812dcffffffffffffffffffff0001")
)

// TestAccountIDsAndDefaultNames projects a chain made before own-keys
// that crosses it: ids number accounts in the chain's order (genesis
// first, then block by block, the sender before those its events name),
// never by address; the twins share the legacy default name until the
// upgrade (the older keeps it, as the chain's rules then said), and have
// names of their own from it on. A rebuild gives the same ids.
func TestAccountIDsAndDefaultNames(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		x, y := newWallet(), newWallet()
		if bytes.Compare(y.addr[:], x.addr[:]) < 0 {
			x, y = y, x // y has the higher address, and comes first in the genesis
		}
		late := common.HexToAddress("0x00000000000000000000000000000000000000e1")
		c := newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{
			{Address: y.addr, Amount: 1_000}, {Address: x.addr, Amount: 1_000},
		}})
		transfer := func(from *wallet, to common.Address) item {
			env := from.sign(t, tx.KindTransfer, map[string]any{"to": to.Hex(), "amount": "10"})
			from.nonce++
			return item{raw: encoded(t, env), events: []abci.Event{event("Transfer", "from", from.addr.Hex(), "to", to.Hex(), "amount", "10")}}
		}
		// Block 1: twinB is met before twinA.
		c.add(nil, transfer(y, twinB), transfer(x, twinA))
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, c)
		if err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		wantIDs := map[common.Address]int64{y.addr: 1, x.addr: 2, twinB: 3, twinA: 4}
		checkIDs(t, ix, wantIDs)
		// 1. Before own-keys: the legacy default, shared; the older holds it.
		legacy := names.LegacyDefault(twinA)
		for _, a := range []common.Address{twinA, twinB} {
			if got, _ := ix.Account(ctx, a); got.Username != legacy {
				t.Fatalf("before own-keys %s is %q, want %q", a.Hex(), got.Username, legacy)
			}
		}
		if got, ok, _ := ix.AddressOf(ctx, legacy); !ok || got != twinB {
			t.Fatalf("%s resolves to %s %v, want the older twin", legacy, got.Hex(), ok)
		}
		if got, _ := ix.DefaultName(ctx, late); got != names.LegacyDefault(late) {
			t.Fatalf("an account the chain has not met is called %q", got)
		}

		// 2. Block 2 crosses own-keys and meets a new account.
		c.add([]abci.Event{event(app.EventUpgrade, "name", upgrade.OwnKeys, "height", "2")}, transfer(x, late))
		if err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		wantIDs[late] = 5
		checkIDs(t, ix, wantIDs)
		checkWideNames(t, ix, twinA, twinB, late, x.addr, y.addr, common.Address{0xe3})
		if got, ok, _ := ix.AddressOf(ctx, legacy); ok {
			t.Fatalf("the legacy name still resolves, to %s", got.Hex())
		}
		people, total, err := ix.SearchPeople(ctx, "", 4, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 1 || len(people) != 1 || people[0].Address != twinA.Hex() || people[0].ID != 4 {
			t.Fatalf("search by uid 4 = %+v (%d) %v", people, total, err)
		}

		// 3. Someone who signed in here but is not on chain has a local id,
		// above every chain id, that finds them.
		local := common.Address{0x70, 0x99, 0x79, 0x70, 0xc5, 0x18, 0x12, 0xdc, 0x55}
		su, err := st.EnsureUser(ctx, strings.ToLower(local.Hex()), c.genesis.GenesisTime)
		if err != nil {
			t.Fatal(err)
		}
		if id, err := ix.UserID(ctx, local); err != nil || id != index.LocalUserIDBase+su.ID {
			t.Fatalf("local id = %d %v, want %d", id, err, index.LocalUserIDBase+su.ID)
		}
		if got, ok, err := ix.AddressOfUserID(ctx, index.LocalUserIDBase+su.ID); err != nil || !ok || got != local {
			t.Fatalf("local id finds %s %v %v", got.Hex(), ok, err)
		}

		// 4. A rebuild from the chain (what migration 00039 asks for) gives
		// every account the same id and name.
		if _, err := st.DB().ExecContext(ctx, `UPDATE chain_index SET genesis_hash = 'reproject'`); err != nil {
			t.Fatal(err)
		}
		again := index.New(quiet, st, c)
		if err := again.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		checkIDs(t, again, wantIDs)
		checkWideNames(t, again, twinA, twinB, late, common.Address{0xe3})
	})
}

// TestNewChainsHaveWideNames: a genesis with own-keys names every account
// the wide way from height 0.
func TestNewChainsHaveWideNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newScriptedChain(t, app.Genesis{Params: testParams, Upgrades: []string{upgrade.OwnKeys},
		Allocations: []ledger.Allocation{{Address: twinA, Amount: 1}, {Address: twinB, Amount: 1}}})
	st := openStore(t, databases(t)["sqlite"])
	defer st.Close()
	ix := index.New(quiet, st, c)
	if err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	checkIDs(t, ix, map[common.Address]int64{twinA: 1, twinB: 2})
	checkWideNames(t, ix, twinA, twinB, common.Address{0xe2})
}

func checkIDs(t *testing.T, ix *index.Index, want map[common.Address]int64) {
	t.Helper()
	ctx := context.Background()
	for a, id := range want {
		if got, err := ix.UserID(ctx, a); err != nil || got != id {
			t.Errorf("id of %s = %d %v, want %d", a.Hex(), got, err, id)
		}
		if got, ok, err := ix.AddressOfUserID(ctx, id); err != nil || !ok || got != a {
			t.Errorf("id %d finds %s %v %v, want %s", id, got.Hex(), ok, err, a.Hex())
		}
	}
}

// checkWideNames: each account is called by its wide default, which
// resolves to it alone; the last is one the chain has not met, called
// what it will be called.
func checkWideNames(t *testing.T, ix *index.Index, addrs ...common.Address) {
	t.Helper()
	ctx := context.Background()
	for i, a := range addrs {
		if got, _ := ix.Account(ctx, a); got.Username != names.Default(a) {
			t.Errorf("%s is %q, want %q", a.Hex(), got.Username, names.Default(a))
		}
		if got, ok, _ := ix.AddressOf(ctx, names.Default(a)); (!ok || got != a) && i < len(addrs)-1 {
			t.Errorf("%s resolves to %s %v, want %s", names.Default(a), got.Hex(), ok, a.Hex())
		}
	}
}
