package index

import (
	"context"
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/index/readdb"
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
func writeRoles(ctx context.Context, tx *readdb.WriteTx, b blockRow, changes []roles.Change) error {
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
