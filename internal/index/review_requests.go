package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Review requests and dismissals: the pull request's open requests as
// rows, rewritten with each change to it; a dismissal marks its review.

// writeReviewRequests makes pr's rows its open requests, keeping the time
// of those still open.
func writeReviewRequests(ctx context.Context, tx *readdb.WriteTx, c forgeChange, pr *forge.Pull) error {
	keep := []string{}
	args := []any{int64(pr.Repo), int64(pr.Number)}
	for _, rq := range pr.Requested {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_review_requests (review_id, repo_id, number, reviewer, height, time_ns)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (review_id) DO NOTHING`,
			int64(rq.ID), int64(pr.Repo), int64(pr.Number), rq.Reviewer.Hex(), c.height, c.timeNS); err != nil {
			return fmt.Errorf("write review request %d: %w", rq.ID, err)
		}
		args = append(args, int64(rq.ID))
		keep = append(keep, fmt.Sprintf("$%d", len(args)))
	}
	q := `DELETE FROM forge_review_requests WHERE repo_id = $1 AND number = $2`
	if len(keep) > 0 {
		q += ` AND review_id NOT IN (` + strings.Join(keep, ", ") + `)`
	}
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("remove review requests of %d#%d: %w", pr.Repo, pr.Number, err)
	}
	return nil
}

func writeDismissal(ctx context.Context, tx *readdb.WriteTx, d *forge.Dismissal) error {
	if d == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE forge_reviews SET dismissed = $1, dismiss_message = $2
		WHERE id = $3 AND repo_id = $4 AND number = $5`, d.Dismissed, d.Message, int64(d.Review), int64(d.Repo), int64(d.Number)); err != nil {
		return fmt.Errorf("write dismissal of review %d: %w", d.Review, err)
	}
	return nil
}
