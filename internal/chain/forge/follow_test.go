package forge_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/tx"
)

// A follow is set and cleared, twice is the same as once, and nobody
// follows themself (invalid_field) or the zero address (not_found).
func TestFollow(t *testing.T) {
	w := newWorld(t)
	c := w.ok(stranger, "user.follow", m{"user": owner.Hex()})
	if f := c.Follow; f == nil || f.Follower != stranger || f.User != owner || !f.On {
		t.Fatalf("follow %+v", c.Follow)
	}
	if again := w.ok(stranger, "user.follow", m{"user": owner.Hex()}); again.Follow == nil || !again.Follow.On {
		t.Fatalf("second follow %+v", again.Follow)
	}
	w.fails(tx.CodeInvalidField, owner, "user.follow", m{"user": owner.Hex()})
	w.fails(tx.CodeNotFound, owner, "user.follow", m{"user": "0x0000000000000000000000000000000000000000"})
	w.fails(tx.CodeNotFound, owner, "user.follow", m{})
	u := w.ok(stranger, "user.unfollow", m{"user": owner.Hex()})
	if f := u.Follow; f == nil || f.Follower != stranger || f.User != owner || f.On {
		t.Fatalf("unfollow %+v", u.Follow)
	}
	w.ok(stranger, "user.unfollow", m{"user": owner.Hex()})
}
