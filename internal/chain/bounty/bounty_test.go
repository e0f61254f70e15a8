package bounty_test

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

var (
	owner  = common.HexToAddress("0x1000000000000000000000000000000000000001")
	alice  = common.HexToAddress("0x2000000000000000000000000000000000000002")
	bob    = common.HexToAddress("0x3000000000000000000000000000000000000003")
	author = common.HexToAddress("0x4000000000000000000000000000000000000004")
)

// world is a store with repository 1, its open issue #1, and funded alice and bob.
func world(t *testing.T) *state.Store {
	t.Helper()
	st := state.OpenMemory()
	if err := ledger.InitGenesis(st, []ledger.Allocation{{Address: alice, Amount: 1000}, {Address: bob, Amount: 1000}}); err != nil {
		t.Fatal(err)
	}
	for i, a := range []struct{ action, payload string }{{"repo.create", `{"name":"lib"}`}, {"issue.create", `{"repo":1,"title":"Bug"}`}} {
		if _, err := forge.ApplyChange(st, forge.Env{Height: uint64(i + 1)}, owner, a.action, a.payload); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func balance(t *testing.T, st *state.Store, a common.Address) uint64 {
	t.Helper()
	n, err := ledger.Balance(st, a)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSharesAddUpAndKeepTheLaterExpiry(t *testing.T) {
	st := world(t)
	steps := []struct {
		from           common.Address
		amount, expiry uint64
	}{{alice, 100, 50}, {bob, 30, 20}, {alice, 10, 40}}
	var b bounty.Bounty
	for _, s := range steps {
		var err error
		if b, err = bounty.Fund(st, s.from, 1, 1, s.amount, s.expiry, 10); err != nil {
			t.Fatal(err)
		}
	}
	want := []bounty.Share{{Funder: alice, Amount: 110, Expiry: 50}, {Funder: bob, Amount: 30, Expiry: 20}}
	if b.Total != 140 || b.Status != bounty.StatusOpen || len(b.Shares) != 2 || b.Shares[0] != want[0] || b.Shares[1] != want[1] {
		t.Fatalf("bounty %+v", b)
	}
	if got := balance(t, st, bounty.EscrowAddress); got != 140 {
		t.Fatalf("escrow %d", got)
	}
	// The expiry block itself is too early; the one after pays back.
	if _, _, err := bounty.Refund(st, bob, 1, 1, 20); !errors.Is(bounty.TxError(err), &tx.Error{Code: tx.CodeBountyNotExpired}) {
		t.Fatalf("refund at the expiry: %v", err)
	}
	b, s, err := bounty.Refund(st, bob, 1, 1, 21)
	if err != nil || s.Amount != 30 || b.Total != 110 || len(b.Shares) != 1 || balance(t, st, bob) != 1000 {
		t.Fatalf("refund: %+v %+v %v", b, s, err)
	}
	// The payout takes what is left, and the record says so.
	b, ok, err := bounty.Payout(st, 1, 1, author, 30)
	if err != nil || !ok || b.Status != bounty.StatusPaid || b.PaidAmount != 110 || b.Total != 0 || b.Shares != nil || balance(t, st, author) != 110 {
		t.Fatalf("payout: %+v %v %v", b, ok, err)
	}
	if _, _, err := bounty.Refund(st, alice, 1, 1, 99); !errors.Is(bounty.TxError(err), &tx.Error{Code: tx.CodeBountyNoShare}) {
		t.Fatalf("refund after the payout: %v", err)
	}
	ev := bounty.Event(b, bounty.CausePaid, author, 110)
	if c, err := bounty.ParseEvent(ev); err != nil || c.Cause != bounty.CausePaid || c.Account != author || c.Amount != 110 || c.Bounty.PaidTo != author {
		t.Fatalf("event round trip: %+v %v", c, err)
	}
}

func TestFundRefusalsWriteNothing(t *testing.T) {
	st := world(t)
	cases := []struct {
		name                         string
		repo, number, amount, expiry uint64
		code                         uint32
	}{
		{"zero", 1, 1, 0, 50, tx.CodeNonPositiveAmount},
		{"unknown issue", 1, 9, 10, 50, tx.CodeNotFound},
		{"unknown repository", 7, 1, 10, 50, tx.CodeNotFound},
		{"private id", forge.PrivateIDBase, 1, 10, 50, tx.CodeNotFound},
		{"expiry now", 1, 1, 10, 10, tx.CodeInvalidField},
		{"too much", 1, 1, 5000, 50, tx.CodeInsufficientFunds},
	}
	for _, c := range cases {
		o := state.NewOverlay(st)
		_, err := bounty.Fund(o, alice, c.repo, c.number, c.amount, c.expiry, 10)
		if !errors.Is(bounty.TxError(err), &tx.Error{Code: c.code}) {
			t.Fatalf("%s: %v, want %s", c.name, err, tx.CodeName(c.code))
		}
	}
	if _, ok, _ := bounty.Get(st, 1, 1); ok || balance(t, st, alice) != 1000 {
		t.Fatal("a refusal left state behind")
	}
	// Paying an issue nobody funded writes nothing.
	if _, ok, err := bounty.Payout(st, 1, 1, author, 11); ok || err != nil {
		t.Fatalf("payout of nothing: %v %v", ok, err)
	}
}
