package gitserver

import (
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
)

// A git-lfs-authenticate ticket stands for its account, repository and
// operation until it expires, and only as this process signed it.
func TestTickets(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	tk := newTickets()
	tk.now = func() time.Time { return now }
	user := &auth.User{Address: common.HexToAddress("0x00000000000000000000000000000000000000a1"), Username: "ada"}

	secret, ttl := tk.mint(user, "repo-1", "download")
	if ttl != 10*time.Minute || !strings.HasPrefix(secret, ticketPrefix) {
		t.Fatalf("minted %q for %v", secret, ttl)
	}
	got, ok := tk.check(secret)
	if !ok || got.Repo != "repo-1" || got.Op != "download" || got.identity().User.Address != user.Address || got.identity().Scope != auth.ScopeRead {
		t.Fatalf("check: %+v %v", got, ok)
	}
	if up, _ := tk.mint(user, "repo-1", "upload"); func() bool { g, _ := tk.check(up); return g.identity().Scope != auth.ScopeWrite }() {
		t.Fatal("an upload ticket does not write")
	}
	if h, ok := ticketOf("Bearer " + secret); !ok || h != secret {
		t.Fatalf("ticketOf: %q %v", h, ok)
	}
	if _, ok := ticketOf("Bearer " + strings.Repeat("a", 40)); ok {
		t.Fatal("an access token taken for a ticket")
	}

	// Expired, tampered with, or signed by another process: refused.
	now = now.Add(TicketTTL)
	if _, ok := tk.check(secret); ok {
		t.Fatal("an expired ticket accepted")
	}
	now = now.Add(-time.Minute)
	body, sig, _ := strings.Cut(strings.TrimPrefix(secret, ticketPrefix), ".")
	other, _ := tk.mint(user, "repo-2", "upload")
	otherBody, _, _ := strings.Cut(strings.TrimPrefix(other, ticketPrefix), ".")
	for _, bad := range []string{ticketPrefix + otherBody + "." + sig, ticketPrefix + body, ticketPrefix + body + "." + sig + "x", "x" + secret} {
		if _, ok := tk.check(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
	stranger := newTickets()
	stranger.now = tk.now
	if _, ok := stranger.check(secret); ok {
		t.Fatal("another process's ticket accepted")
	}
}
