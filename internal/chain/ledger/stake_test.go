package ledger_test

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
)

func amounts(t *testing.T, kv state.KV, a common.Address) (bal, staked, unbonding uint64) {
	t.Helper()
	var err error
	if bal, err = ledger.Balance(kv, a); err != nil {
		t.Fatal(err)
	}
	if staked, err = ledger.Staked(kv, a); err != nil {
		t.Fatal(err)
	}
	if unbonding, err = ledger.Unbonding(kv, a); err != nil {
		t.Fatal(err)
	}
	return bal, staked, unbonding
}

func TestStakeUnstakeAndMature(t *testing.T) {
	kv := state.OpenMemory()
	if err := ledger.InitGenesis(kv, []ledger.Allocation{{Address: alice, Amount: 1000}, {Address: bob, Amount: 500}}); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(ledger.Stake(kv, alice, 600))
	must(ledger.Stake(kv, bob, 500))
	must(ledger.Unstake(kv, alice, 100, 10))
	must(ledger.Unstake(kv, bob, 200, 10))
	must(ledger.Unstake(kv, alice, 50, 11))

	if b, s, u := amounts(t, kv, alice); b != 400 || s != 450 || u != 150 {
		t.Fatalf("alice %d/%d/%d, want 400/450/150", b, s, u)
	}
	if ts, _ := ledger.TotalStaked(kv); ts != 750 {
		t.Fatalf("total staked %d, want 750", ts)
	}
	if tu, _ := ledger.TotalUnbonding(kv); tu != 350 {
		t.Fatalf("total unbonding %d, want 350", tu)
	}

	if paid, err := ledger.MatureUnbondings(kv, 9); err != nil || len(paid) != 0 {
		t.Fatalf("height 9 paid %v %v", paid, err)
	}
	paid, err := ledger.MatureUnbondings(kv, 10)
	must(err)
	want := []ledger.Matured{{Address: alice, Amount: 100}, {Address: bob, Amount: 200}}
	if len(paid) != 2 || paid[0] != want[0] || paid[1] != want[1] {
		t.Fatalf("height 10 paid %v, want %v in entry order", paid, want)
	}
	if b, s, u := amounts(t, kv, alice); b != 500 || s != 450 || u != 50 {
		t.Fatalf("alice after 10: %d/%d/%d, want 500/450/50", b, s, u)
	}
	if b, s, u := amounts(t, kv, bob); b != 200 || s != 300 || u != 0 {
		t.Fatalf("bob after 10: %d/%d/%d, want 200/300/0", b, s, u)
	}
	paid, err = ledger.MatureUnbondings(kv, 11)
	must(err)
	if len(paid) != 1 || paid[0] != (ledger.Matured{Address: alice, Amount: 50}) {
		t.Fatalf("height 11 paid %v", paid)
	}
	if tu, _ := ledger.TotalUnbonding(kv); tu != 0 {
		t.Fatalf("total unbonding %d after all matured", tu)
	}
	if s, _ := ledger.Supply(kv); s != 1500 {
		t.Fatalf("supply %d, want 1500", s)
	}
}

func TestStakeRejections(t *testing.T) {
	kv := state.OpenMemory()
	if err := ledger.InitGenesis(kv, []ledger.Allocation{{Address: alice, Amount: 100}}); err != nil {
		t.Fatal(err)
	}
	if err := ledger.Stake(kv, alice, 101); !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("stake over balance: %v", err)
	}
	if err := ledger.Stake(kv, alice, 0); !errors.Is(err, ledger.ErrNonPositive) {
		t.Fatalf("stake zero: %v", err)
	}
	if err := ledger.Stake(kv, alice, 40); err != nil {
		t.Fatal(err)
	}
	if err := ledger.Unstake(kv, alice, 41, 5); !errors.Is(err, ledger.ErrInsufficientStake) {
		t.Fatalf("unstake over stake: %v", err)
	}
	if err := ledger.Unstake(kv, alice, 0, 5); !errors.Is(err, ledger.ErrNonPositive) {
		t.Fatalf("unstake zero: %v", err)
	}
	if b, s, u := amounts(t, kv, alice); b != 60 || s != 40 || u != 0 {
		t.Fatalf("after rejections alice %d/%d/%d, want 60/40/0", b, s, u)
	}
}
