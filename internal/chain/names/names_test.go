package names_test

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

func TestDefaultIsDerivedFromTheAddress(t *testing.T) {
	a := common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	if got := names.Default(a); got != "user-70997970c51812dc3a01" {
		t.Fatalf("Default = %q", got)
	}
	if got := names.LegacyDefault(a); got != "user-70997970c518" {
		t.Fatalf("LegacyDefault = %q", got)
	}
	for _, n := range []string{names.Default(a), names.LegacyDefault(a), "USER-70997970C51812DC3A01"} {
		if err := names.Validate(n); !errors.Is(err, names.ErrReserved) {
			t.Fatalf("a default name %q can be claimed as a plain name: %v", n, err)
		}
	}
}

// Two addresses sharing 64 bits (more than a vanity grinder reaches) share
// the old default name but not the new one.
func TestWideDefaultsOfAddressesSharingAPrefix(t *testing.T) {
	a := common.HexToAddress("0x70997970c51812dc0000000000000000000000a1")
	b := common.HexToAddress("0x70997970c51812dcffffffffffffffffffffffb2")
	if names.LegacyDefault(a) != names.LegacyDefault(b) {
		t.Fatal("the test's addresses should share a legacy default")
	}
	if names.Default(a) == names.Default(b) {
		t.Fatalf("two addresses share the default %q", names.Default(a))
	}
}

// Before the own-keys upgrade the state machine keeps the legacy rules, so
// old blocks replay to the same state; from the upgrade on, the wide ones.
func TestDefaultFollowsTheOwnKeysUpgrade(t *testing.T) {
	kv := state.OpenMemory()
	a, b := common.Address{0xaa, 1}, common.Address{0xbb, 2}
	wideShaped := "user-0123456789abcdef0123"
	// 1. Before: Of gives the legacy default, a wide-shaped name may be
	// claimed (it could be, then), the legacy shape may not.
	if got, _ := names.Of(kv, a); got != names.LegacyDefault(a) {
		t.Fatalf("before the upgrade Of = %q, want %q", got, names.LegacyDefault(a))
	}
	if _, err := names.Claim(kv, b, wideShaped); err != nil {
		t.Fatalf("before the upgrade a wide-shaped name is refused: %v", err)
	}
	if _, err := names.Claim(kv, a, "user-0123456789ab"); !errors.Is(err, names.ErrReserved) {
		t.Fatalf("before the upgrade a legacy-shaped name: %v, want ErrReserved", err)
	}
	// Claiming the legacy default gives up a claimed name.
	if _, err := names.Claim(kv, a, "neo"); err != nil {
		t.Fatal(err)
	}
	if prev, err := names.Claim(kv, a, names.LegacyDefault(a)); err != nil || prev != "neo" {
		t.Fatalf("back to the default: previous %q, %v", prev, err)
	}
	// 2. After: the wide default, and neither shape can be claimed.
	if err := upgrade.Apply(kv, upgrade.OwnKeys, 5); err != nil {
		t.Fatal(err)
	}
	if got, _ := names.Of(kv, a); got != names.Default(a) {
		t.Fatalf("after the upgrade Of = %q, want %q", got, names.Default(a))
	}
	for _, n := range []string{"user-fedcba9876543210fedc", names.LegacyDefault(a)} {
		if _, err := names.Claim(kv, a, n); !errors.Is(err, names.ErrReserved) {
			t.Fatalf("after the upgrade claiming %q: %v, want ErrReserved", n, err)
		}
	}
	// A name claimed before stays its holder's until they let it go.
	if got, _ := names.Of(kv, b); got != wideShaped {
		t.Fatalf("the earlier claim became %q", got)
	}
	if prev, err := names.Claim(kv, b, names.Default(b)); err != nil || prev != wideShaped {
		t.Fatalf("giving up the earlier claim: previous %q, %v", prev, err)
	}
	if got, _ := names.Of(kv, b); got != names.Default(b) {
		t.Fatalf("after giving it up Of = %q", got)
	}
}

func TestValidate(t *testing.T) {
	for _, ok := range []string{"a", "alice", "Alice_B", "a.b-c", "x1", "user-123", "user-70997970c51g", "user-0123456789abcdef012"} {
		if err := names.Validate(ok); err != nil {
			t.Errorf("Validate(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "_a", "a_", "a__b", "a-.b", "a/b", "é", "api", "Wallet", "x.git", "user-0123456789ab", "user-0123456789abcdef0123"} {
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

// The web app's page names the first reserved list missed are reserved
// from the route-names upgrade on; one claimed before stays its holder's.
func TestRouteNamesAreReservedFromTheirUpgrade(t *testing.T) {
	kv := state.OpenMemory()
	early, late := common.Address{0xaa, 3}, common.Address{0xbb, 4}
	if _, err := names.Claim(kv, early, "roadmap"); err != nil {
		t.Fatalf("before the upgrade roadmap is refused: %v", err)
	}
	if err := upgrade.Apply(kv, upgrade.RouteNames, 9); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"issue", "PR", "Repository", "leaderboard", "whitepaper"} {
		if _, err := names.Claim(kv, late, n); !errors.Is(err, names.ErrReserved) {
			t.Fatalf("after the upgrade claiming %q: %v, want ErrReserved", n, err)
		}
	}
	if got, _ := names.Of(kv, early); got != "roadmap" {
		t.Fatalf("the earlier claim became %q", got)
	}
}
