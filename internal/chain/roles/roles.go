// Package roles is the chain module of community roles: forum moderator,
// event organizer and ambassador. Governance grants and revokes them (a
// role proposal); a genesis may seed the first holders. Modules that need
// a role (the forum's moderation, events) ask Has on the same store, so
// the state machine itself checks every action that needs one.
//
// State keys:
//
//	roles/<role>/<address (20 bytes)>   1 while held, 0 once revoked
package roles

import (
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
)

// The roles governance can grant.
const (
	ForumModerator = "forum_moderator"
	EventOrganizer = "event_organizer"
	Ambassador     = "ambassador"
)

// All lists every role, in the order pages show them.
var All = []string{ForumModerator, EventOrganizer, Ambassador}

// Valid reports whether role is one of All.
func Valid(role string) bool { return slices.Contains(All, role) }

func key(role string, addr common.Address) []byte {
	return append([]byte("roles/"+role+"/"), addr.Bytes()...)
}

// Has reports whether addr holds role.
func Has(kv state.Reader, addr common.Address, role string) (bool, error) {
	n, err := state.GetUint64(kv, key(role, addr))
	if err != nil {
		return false, fmt.Errorf("read role %s of %s: %w", role, addr.Hex(), err)
	}
	return n == 1, nil
}

// Set grants (held) or revokes role for addr. The store has no delete, so
// a revoked role keeps the key with 0.
func Set(kv state.KV, addr common.Address, role string, held bool) error {
	if !Valid(role) {
		return fmt.Errorf("unknown role %q", role)
	}
	var n uint64
	if held {
		n = 1
	}
	return state.SetUint64(kv, key(role, addr), n)
}

// Grant is a genesis role holder.
type Grant struct {
	Address common.Address `json:"address"`
	Role    string         `json:"role"`
}

// InitGenesis grants the genesis holders their roles.
func InitGenesis(kv state.KV, grants []Grant) error {
	for _, g := range grants {
		if g.Address == (common.Address{}) {
			return fmt.Errorf("genesis role %s: the zero address cannot hold a role", g.Role)
		}
		if err := Set(kv, g.Address, g.Role, true); err != nil {
			return fmt.Errorf("genesis role of %s: %w", g.Address.Hex(), err)
		}
	}
	return nil
}

// Apply grants or revokes as c says. Granting a role the account holds,
// or revoking one it does not, fails with the reason a proposal records.
func Apply(kv state.KV, c Change) error {
	if !Valid(c.Role) {
		return fmt.Errorf("unknown role %q: it must be one of %v", c.Role, All)
	}
	if c.Account == (common.Address{}) {
		return fmt.Errorf("the zero address cannot hold a role")
	}
	held, err := Has(kv, c.Account, c.Role)
	if err != nil {
		return err
	}
	switch {
	case c.Action == ActionGrant && held:
		return fmt.Errorf("%s already holds the role %s", c.Account.Hex(), c.Role)
	case c.Action == ActionRevoke && !held:
		return fmt.Errorf("%s does not hold the role %s, so it cannot be revoked", c.Account.Hex(), c.Role)
	case c.Action != ActionGrant && c.Action != ActionRevoke:
		return fmt.Errorf("unknown action %q: it must be grant or revoke", c.Action)
	}
	return Set(kv, c.Account, c.Role, c.Action == ActionGrant)
}
