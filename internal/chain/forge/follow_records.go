package forge

import "github.com/ethereum/go-ethereum/common"

// The follows' record, as user.follow's and user.unfollow's events carry
// it (Change.Follow). The actions, keys and rules are
// internal/chain/follows'; the record stays here because Change, whose JSON
// is the event, names it.

// Follow is a follow set or cleared: Follower follows User while On.
type Follow struct {
	Follower common.Address `json:"follower"`
	User     common.Address `json:"user"`
	On       bool           `json:"on"`
}
