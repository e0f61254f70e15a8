package index

import (
	"context"
	"database/sql"
	"fmt"
)

// RoleHolder is an account holding a community role, with the profile
// its owner keeps on this node (zero when they never signed in here).
type RoleHolder struct {
	Person
	Role     string
	Height   int64  // the block the role was granted in (the genesis height for a genesis grant)
	Proposal uint64 // the role proposal that granted it; 0 for a genesis grant
	Granted  string // the time of that block
}

// The holders joined with their chain account (for the name) and the
// node-local profile; a genesis holder may have no account row yet.
const holderFrom = `community_roles c LEFT JOIN chain_accounts a ON a.address = c.address
	LEFT JOIN users u ON u.address = lower(c.address)`

const holderColumns = `c.address, COALESCE(a.id, 0), COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), ''), COALESCE(u.full_name, ''), COALESCE(u.description, ''),
	COALESCE(u.location, ''), COALESCE(u.website, ''), 0, c.role, c.height, c.proposal, c.time_ns`

// RoleHolders lists the holders of role (every role when ""), the
// longest-standing first, and counts them. Profiles change outside the
// projection, so the answer is not kept in the read cache.
func (ix *Index) RoleHolders(ctx context.Context, role string, p Page) ([]RoleHolder, int64, error) {
	where, args := "", []any{}
	if role != "" {
		where, args = "c.role = $1", []any{role}
	}
	out := []RoleHolder{}
	total, err := ix.page(ctx, holderColumns, holderFrom, where, "c.height, c.role, c.address", args, p, func(rows *sql.Rows, total *int64) error {
		var h RoleHolder
		var proposal, ns int64
		pr, err := scanPerson(rows, &h.Role, &h.Height, &proposal, &ns, total)
		if err != nil {
			return err
		}
		h.Person, h.Proposal, h.Granted = pr, uint64(proposal), formatTime(ns)
		out = append(out, h)
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list role holders: %w", err)
	}
	return out, total, nil
}
