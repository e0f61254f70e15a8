package index

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/index/readdb"
)

func writeMilestone(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	if m := c.change.Milestone; m != nil {
		_, err := tx.ExecContext(ctx, `INSERT INTO forge_milestones (id, repo_id, title, description, state, due_unix,
			created_height, created_time_ns, updated_height, updated_time_ns, closed_time_ns, signer, delegation)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $10, $11, $12)
			ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description, state = excluded.state,
			due_unix = excluded.due_unix, updated_height = excluded.updated_height, updated_time_ns = excluded.updated_time_ns,
			closed_time_ns = CASE WHEN excluded.state = 'open' THEN NULL
				ELSE COALESCE(excluded.closed_time_ns, forge_milestones.closed_time_ns) END`,
			int64(m.ID), int64(m.Repo), m.Title, m.Description, m.State, nullable(m.Due, m.Due != 0),
			int64(m.CreatedHeight), c.timeNS, c.height, timeAt(c, m.ClosedHeight), c.change.Signer, c.change.Delegation)
		if err != nil {
			return fmt.Errorf("write milestone %d: %w", m.ID, err)
		}
	}
	if m := c.change.DeletedMilestone; m != nil {
		for _, q := range []string{`UPDATE forge_issues SET milestone_id = NULL WHERE milestone_id = $1`, `DELETE FROM forge_milestones WHERE id = $1`} {
			if _, err := tx.ExecContext(ctx, q, int64(m.ID)); err != nil {
				return fmt.Errorf("delete milestone %d: %w", m.ID, err)
			}
		}
	}
	return nil
}
