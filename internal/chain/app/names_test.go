package app_test

import (
	"strconv"
	"testing"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
)

func claim(t testing.TB, from wallet, username string, nonce uint64) []byte {
	t.Helper()
	return encodeSigned(t, from, tx.KindClaimUsername, testChainID, map[string]any{
		"from": from.addr.Hex(), "username": username, "nonce": strconv.FormatUint(nonce, 10),
	})
}

func TestClaimUsernameIsUniqueAcrossTheChain(t *testing.T) {
	t.Parallel()
	alice, bob := newWallet(t), newWallet(t)
	a, _ := newStakingChain(t, 10, alice, bob)
	if got := account(t, a, alice.addr).Username; got != names.LegacyDefault(alice.addr) {
		t.Fatalf("before any claim the username is %q, want the default %q", got, names.LegacyDefault(alice.addr))
	}

	res := finalize(t, a, 1, claim(t, alice, "Alice", 0))
	if res.TxResults[0].Code != 0 {
		t.Fatalf("claim failed: %s", res.TxResults[0].Log)
	}
	ev := res.TxResults[0].Events[0]
	if attr(ev, "username") != "Alice" || attr(ev, "previous") != "" {
		t.Fatalf("event %v, want username Alice and no previous name", ev.Attributes)
	}

	// Another account cannot take it, in any case.
	if r := checkTx(t, a, claim(t, bob, "alice", 0)); r.Code != tx.CodeUsernameTaken {
		t.Fatalf("bob claiming alice: code %d (%s), want username_taken", r.Code, r.Log)
	}
	// Alice moves to another name; the old one is free for bob.
	res = finalize(t, a, 2, claim(t, alice, "alice-dev", 1), claim(t, bob, "alice", 0))
	for i, r := range res.TxResults {
		if r.Code != 0 {
			t.Fatalf("tx %d failed: %s", i, r.Log)
		}
	}
	if attr(res.TxResults[0].Events[0], "previous") != "Alice" {
		t.Fatalf("the move does not name the released name: %v", res.TxResults[0].Events[0].Attributes)
	}
	if got := account(t, a, bob.addr).Username; got != "alice" {
		t.Fatalf("bob's username is %q, want alice", got)
	}
	// Claiming one's default name gives the claimed one up.
	res = finalize(t, a, 3, claim(t, alice, names.LegacyDefault(alice.addr), 2))
	if res.TxResults[0].Code != 0 || account(t, a, alice.addr).Username != names.LegacyDefault(alice.addr) {
		t.Fatalf("back to default: code %d %q, username %q", res.TxResults[0].Code, res.TxResults[0].Log, account(t, a, alice.addr).Username)
	}
}

func TestClaimUsernameRejections(t *testing.T) {
	t.Parallel()
	alice, bob := newWallet(t), newWallet(t)
	a, _ := newStakingChain(t, 10, alice, bob)
	for _, tc := range []struct{ name string }{
		{"-alice"}, {"alice-"}, {"al..ice"}, {"al ice"}, {"settings"}, {"ADMIN"}, {"repo.git"},
		{"a234567890123456789012345678901234567890"}, {names.LegacyDefault(bob.addr)},
	} {
		if r := checkTx(t, a, claim(t, alice, tc.name, 0)); r.Code != tx.CodeInvalidField || r.Log == "" {
			t.Errorf("claim %q: code %d (%s), want invalid_field with a message", tc.name, r.Code, r.Log)
		}
	}
}
