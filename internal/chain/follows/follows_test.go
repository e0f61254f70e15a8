package follows_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/forge/actiontest"
	"github.com/dforge/dforge/internal/chain/tx"
)

type m = actiontest.M

var (
	owner    = actiontest.Owner
	stranger = actiontest.Stranger
)

// A follow is set and cleared, twice is the same as once, and nobody
// follows themself (invalid_field) or the zero address (not_found).
func TestFollow(t *testing.T) {
	w := actiontest.New(t)
	c := w.OK(stranger, "user.follow", m{"user": owner.Hex()})
	if f := c.Follow; f == nil || f.Follower != stranger || f.User != owner || !f.On {
		t.Fatalf("follow %+v", c.Follow)
	}
	if again := w.OK(stranger, "user.follow", m{"user": owner.Hex()}); again.Follow == nil || !again.Follow.On {
		t.Fatalf("second follow %+v", again.Follow)
	}
	w.Fails(tx.CodeInvalidField, owner, "user.follow", m{"user": owner.Hex()})
	w.Fails(tx.CodeNotFound, owner, "user.follow", m{"user": "0x0000000000000000000000000000000000000000"})
	w.Fails(tx.CodeNotFound, owner, "user.follow", m{})
	u := w.OK(stranger, "user.unfollow", m{"user": owner.Hex()})
	if f := u.Follow; f == nil || f.Follower != stranger || f.User != owner || f.On {
		t.Fatalf("unfollow %+v", u.Follow)
	}
	w.OK(stranger, "user.unfollow", m{"user": owner.Hex()})
}
