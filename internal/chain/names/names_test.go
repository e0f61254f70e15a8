package names_test

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/state"
)

func TestDefaultIsDerivedFromTheAddress(t *testing.T) {
	a := common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	if got := names.Default(a); got != "user-70997970c518" {
		t.Fatalf("Default = %q", got)
	}
	if err := names.Validate(names.Default(a)); !errors.Is(err, names.ErrReserved) {
		t.Fatalf("a default name can be claimed as a plain name: %v", err)
	}
}

func TestValidate(t *testing.T) {
	for _, ok := range []string{"a", "alice", "Alice_B", "a.b-c", "x1", "user-123", "user-70997970c51g"} {
		if err := names.Validate(ok); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "_a", "a_", "a__b", "a-.b", "a/b", "é", "api", "Wallet", "x.git"} {
		if err := names.Validate(bad); err == nil {
			t.Errorf("Validate(%q) accepted", bad)
		}
	}
}

func TestOwnerFollowsClaims(t *testing.T) {
	st := state.OpenMemory()
	a, b := common.Address{1}, common.Address{2}
	if _, err := names.Claim(st, a, "Neo"); err != nil {
		t.Fatal(err)
	}
	if owner, ok, _ := names.Owner(st, "NEO"); !ok || owner != a {
		t.Fatalf("owner of NEO = %v %v, want %v", owner, ok, a)
	}
	if _, err := names.Claim(st, b, "neo"); !errors.Is(err, names.ErrTaken) {
		t.Fatalf("second claim: %v, want ErrTaken", err)
	}
	prev, err := names.Claim(st, a, "trinity")
	if err != nil || prev != "Neo" {
		t.Fatalf("move: previous %q, %v", prev, err)
	}
	if _, ok, _ := names.Owner(st, "neo"); ok {
		t.Fatal("the released name still has an owner")
	}
}
