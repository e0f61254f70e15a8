package ledger_test

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
)

var (
	alice = common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	bob   = common.HexToAddress("0x0000000000000000000000000000000000000b0b")
)

func TestTransferMovesFundsAndKeepsSupply(t *testing.T) {
	kv := state.OpenMemory()
	if err := ledger.InitGenesis(kv, []ledger.Allocation{{Address: alice, Amount: 1000}}); err != nil {
		t.Fatal(err)
	}
	if err := ledger.Transfer(kv, alice, bob, 300); err != nil {
		t.Fatal(err)
	}
	a, _ := ledger.Balance(kv, alice)
	b, _ := ledger.Balance(kv, bob)
	s, _ := ledger.Supply(kv)
	if a != 700 || b != 300 || s != 1000 {
		t.Fatalf("alice %d bob %d supply %d; want 700 300 1000", a, b, s)
	}
}

func TestTransferRejections(t *testing.T) {
	kv := state.OpenMemory()
	ledger.InitGenesis(kv, []ledger.Allocation{{Address: alice, Amount: 10}})
	if err := ledger.Transfer(kv, alice, bob, 11); !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("overdraft: %v", err)
	}
	if err := ledger.Transfer(kv, alice, bob, 0); !errors.Is(err, ledger.ErrNonPositive) {
		t.Fatalf("zero amount: %v", err)
	}
	if a, _ := ledger.Balance(kv, alice); a != 10 {
		t.Fatalf("a rejected transfer changed the balance to %d", a)
	}
}

func TestNoncesAdvanceInOrder(t *testing.T) {
	kv := state.OpenMemory()
	if err := ledger.UseNonce(kv, alice, 1); !errors.Is(err, ledger.ErrBadNonce) {
		t.Fatalf("out-of-order nonce: %v", err)
	}
	if err := ledger.UseNonce(kv, alice, 0); err != nil {
		t.Fatal(err)
	}
	if err := ledger.UseNonce(kv, alice, 0); !errors.Is(err, ledger.ErrBadNonce) {
		t.Fatalf("replayed nonce: %v", err)
	}
	if n, _ := ledger.Nonce(kv, alice); n != 1 {
		t.Fatalf("nonce = %d, want 1", n)
	}
}
