package forge

import (
	"github.com/ethereum/go-ethereum/common"
)

// Following (user.follow, user.unfollow): an account follows another
// account or an organization, as on Gitea. Following is public, so it is
// on chain, one flag per (follower, followed) pair; doing it twice
// changes nothing more, like a star. The chain knows accounts by address
// only (an account need not have claimed a name), so the API resolves the
// name and refuses one nobody holds; the module refuses the zero address
// (not_found) and the actor itself (invalid_field).

// UserFollow is the payload of user.follow and user.unfollow: the account
// followed.
type UserFollow struct {
	User common.Address `json:"user"`
}

// UserUnfollow stops following User.
type UserUnfollow UserFollow

func (UserFollow) ActionName() string   { return "user.follow" }
func (UserUnfollow) ActionName() string { return "user.unfollow" }

// Follow is a follow set or cleared: Follower follows User while On.
type Follow struct {
	Follower common.Address `json:"follower"`
	User     common.Address `json:"user"`
	On       bool           `json:"on"`
}

func followKey(follower, user common.Address) []byte {
	return key([]byte("follow"), follower.Bytes(), user.Bytes())
}

func userFollow(s *session, payload []byte, on bool) error {
	var p UserFollow
	if err := decode(payload, &p); err != nil {
		return err
	}
	switch p.User {
	case common.Address{}:
		return notFound("no account has the zero address")
	case s.actor:
		return invalid("user", "is you; you cannot follow yourself")
	}
	k := followKey(s.actor, p.User)
	v, err := s.kv.Get(k)
	if err != nil {
		return err
	}
	switch was := !isNone(v); {
	case on && !was:
		err = s.kv.Set(k, []byte{1})
	case !on && was:
		err = s.kv.Set(k, none)
	}
	if err != nil {
		return err
	}
	s.change.Follow = &Follow{Follower: s.actor, User: p.User, On: on}
	return nil
}
