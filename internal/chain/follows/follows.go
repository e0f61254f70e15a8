// Package follows is the chain module of following (user.follow,
// user.unfollow): an account follows another account or an organization,
// as on Gitea. Following is public, so it is on chain, one flag per
// (follower, followed) pair; doing it twice changes nothing more, like a
// star. The chain knows accounts by address only (an account need not have
// claimed a name), so the API resolves the name and refuses one nobody
// holds; the module refuses the zero address (not_found) and the actor
// itself (invalid_field).
//
// Its actions are forge actions: init registers them into the forge
// module's one actions table (forge.Register); the record their events
// carry (forge.Follow) stays in the forge package. README.md is the spec.
package follows

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
)

func init() {
	forge.Register("user.follow", Follow{}, func(s *forge.Session, p []byte) error { return follow(s, p, true) })
	forge.Register("user.unfollow", Unfollow{}, func(s *forge.Session, p []byte) error { return follow(s, p, false) })
}

// Follow is the payload of user.follow and user.unfollow: the account
// followed.
type Follow struct {
	User common.Address `json:"user"`
}

// Unfollow stops following User.
type Unfollow Follow

func (Follow) ActionName() string   { return "user.follow" }
func (Unfollow) ActionName() string { return "user.unfollow" }

// followKey is forge/follow/<follower>/<user>, under the forge module's
// prefix, where it was before follows had their own package (the app hash
// depends on it).
func followKey(follower, user common.Address) []byte {
	return forge.StateKey([]byte("follow"), follower.Bytes(), user.Bytes())
}

func follow(s *forge.Session, payload []byte, on bool) error {
	var p Follow
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	switch p.User {
	case common.Address{}:
		return forge.NotFound("no account has the zero address")
	case s.Actor():
		return forge.Invalid("user", "is you; you cannot follow yourself")
	}
	k := followKey(s.Actor(), p.User)
	v, err := s.KV().Get(k)
	if err != nil {
		return err
	}
	switch was := !forge.IsNone(v); {
	case on && !was:
		err = s.KV().Set(k, []byte{1})
	case !on && was:
		err = s.KV().Set(k, forge.None())
	}
	if err != nil {
		return err
	}
	s.Change().Follow = &forge.Follow{Follower: s.Actor(), User: p.User, On: on}
	return nil
}
