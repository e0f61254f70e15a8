package index

import (
	"context"
	"database/sql"
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/roles"
)

// The community roles' projection (internal/chain/roles): one row per
// account and role it holds, from the genesis grants and each passed role
// proposal's Role event; a revocation deletes the row.

// roleRows reads a Role event of the block into changes; events of other
// kinds are left alone.
func roleRows(changes *[]roles.Change, ev abci.Event) error {
	if ev.Type != roles.EventType {
		return nil
	}
	c, err := roles.ParseEvent(ev)
	if err != nil {
		return err
	}
	*changes = append(*changes, c)
	return nil
}

// writeRoles applies grants and revocations made in block b, in order.
func writeRoles(ctx context.Context, tx *sql.Tx, b blockRow, changes []roles.Change) error {
	for _, c := range changes {
		proposal, err := sqlInt(c.Proposal)
		if err != nil {
			return fmt.Errorf("write role of %s: %w", c.Account.Hex(), err)
		}
		if c.Action == roles.ActionRevoke {
			_, err = tx.ExecContext(ctx, `DELETE FROM community_roles WHERE address = $1 AND role = $2`, c.Account.Hex(), c.Role)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO community_roles (address, role, height, proposal, time_ns) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (address, role) DO UPDATE SET height = excluded.height, proposal = excluded.proposal, time_ns = excluded.time_ns`,
				c.Account.Hex(), c.Role, b.height, proposal, b.timeNS)
		}
		if err != nil {
			return fmt.Errorf("write %s of role %s to %s: %w", c.Action, c.Role, c.Account.Hex(), err)
		}
	}
	return nil
}

// genesisRoles are the genesis grants as changes of proposal 0.
func genesisRoles(grants []roles.Grant) []roles.Change {
	out := make([]roles.Change, len(grants))
	for i, g := range grants {
		out[i] = roles.Change{Account: g.Address, Role: g.Role, Action: roles.ActionGrant}
	}
	return out
}

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
