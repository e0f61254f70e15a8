package index

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/index/readdb"
)

// The bounties' projection (internal/chain/bounty): each Bounty event
// carries the bounty in its new state, written as it is; the
// funders' rows are replaced while it is open and kept as they were once
// a merge paid it, so the paid history shows who put up the reward.

var bountyTables = []string{"bounties", "bounty_funders"}

// writeBounties writes a block's bounty changes, in order.
func writeBounties(ctx context.Context, tx *readdb.WriteTx, b blockRow, list []bounty.Change) error {
	for _, c := range list {
		if err := writeBounty(ctx, tx, b, c); err != nil {
			return fmt.Errorf("write bounty %d#%d: %w", c.Bounty.Repo, c.Bounty.Number, err)
		}
	}
	return nil
}

func writeBounty(ctx context.Context, tx *readdb.WriteTx, blk blockRow, c bounty.Change) error {
	b := c.Bounty
	expiry := uint64(0)
	for _, s := range b.Shares {
		expiry = max(expiry, s.Expiry)
	}
	paidTo, paidNS := "", int64(0)
	if b.Status == bounty.StatusPaid {
		paidTo, paidNS = b.PaidTo.Hex(), blk.timeNS
	}
	funders := int64(len(b.Shares))
	if _, err := tx.ExecContext(ctx, `INSERT INTO bounties (repo_id, number, status, total, funders, expiry, paid_to, paid_amount,
		paid_height, paid_time_ns, created_height, updated_height) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
		ON CONFLICT (repo_id, number) DO UPDATE SET status = excluded.status, total = excluded.total,
		funders = CASE WHEN excluded.status = 'paid' THEN bounties.funders ELSE excluded.funders END,
		expiry = CASE WHEN excluded.status = 'paid' THEN bounties.expiry ELSE excluded.expiry END,
		paid_to = excluded.paid_to, paid_amount = excluded.paid_amount, paid_height = excluded.paid_height,
		paid_time_ns = excluded.paid_time_ns, updated_height = excluded.updated_height`,
		int64(b.Repo), int64(b.Number), b.Status, int64(b.Total), funders, int64(expiry), paidTo, int64(b.PaidAmount),
		int64(b.PaidHeight), paidNS, blk.height); err != nil {
		return fmt.Errorf("upsert: %w", err)
	}
	if b.Status == bounty.StatusPaid {
		return nil // the shares stay as the history of who funded it
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM bounty_funders WHERE repo_id = $1 AND number = $2`, int64(b.Repo), int64(b.Number)); err != nil {
		return fmt.Errorf("clear funders: %w", err)
	}
	for i, s := range b.Shares {
		if _, err := tx.ExecContext(ctx, `INSERT INTO bounty_funders (repo_id, number, seq, funder, amount, expiry) VALUES ($1, $2, $3, $4, $5, $6)`,
			int64(b.Repo), int64(b.Number), i, s.Funder.Hex(), int64(s.Amount), int64(s.Expiry)); err != nil {
			return fmt.Errorf("insert funder: %w", err)
		}
	}
	return nil
}
