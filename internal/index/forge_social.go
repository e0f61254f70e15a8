package index

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/index/readdb"
)

// What people do around an issue besides writing it: edit and delete
// their comments, react, pin, subscribe.

// writeComment writes a new comment, an edit of one, or its deletion (the
// body is blanked here: the projection shows a deleted comment nowhere).
func writeComment(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	cm := c.change.Comment
	if cm == nil {
		return nil
	}
	// Every statement stays within its issue's rows (issueScope): an edit
	// or deletion names the issue besides the id.
	ctx = readdb.InScope(ctx, issueScope(cm.Repo, cm.Number))
	var err error
	switch {
	case cm.Deleted:
		_, err = tx.ExecContext(ctx, `UPDATE forge_comments SET deleted = TRUE, body = '', updated_time_ns = $2
			WHERE id = $1 AND repo_id = $3 AND number = $4`, int64(cm.ID), c.timeNS, int64(cm.Repo), int64(cm.Number))
	case cm.Edited:
		_, err = tx.ExecContext(ctx, `UPDATE forge_comments SET body = $2, updated_time_ns = $3
			WHERE id = $1 AND repo_id = $4 AND number = $5`, int64(cm.ID), cm.Body, c.timeNS, int64(cm.Repo), int64(cm.Number))
	default:
		_, err = tx.ExecContext(ctx, `INSERT INTO forge_comments (id, repo_id, number, author, body, height, time_ns, signer, delegation)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, int64(cm.ID), int64(cm.Repo), int64(cm.Number), cm.Author.Hex(), cm.Body, c.height, c.timeNS,
			c.change.Signer, c.change.Delegation)
	}
	if err != nil {
		return fmt.Errorf("write comment %d: %w", cm.ID, err)
	}
	return nil
}

func writeReaction(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	r := c.change.Reaction
	if r == nil {
		return nil
	}
	var err error
	if r.On {
		_, err = tx.ExecContext(ctx, `INSERT INTO forge_reactions (repo_id, number, comment_id, user_address, content, time_ns)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, int64(r.Repo), int64(r.Number), int64(r.Comment), r.User.Hex(), r.Content, c.timeNS)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM forge_reactions WHERE repo_id = $1 AND number = $2 AND comment_id = $3
			AND user_address = $4 AND content = $5`, int64(r.Repo), int64(r.Number), int64(r.Comment), r.User.Hex(), r.Content)
	}
	if err != nil {
		return fmt.Errorf("write reaction on %d#%d: %w", r.Repo, r.Number, err)
	}
	return nil
}

// writePins replaces a repository's pinned issues.
func writePins(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	p := c.change.Pins
	if p == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM forge_issue_pins WHERE repo_id = $1`, int64(p.Repo)); err != nil {
		return fmt.Errorf("write pins of %d: %w", p.Repo, err)
	}
	for i, n := range p.Numbers {
		if _, err := tx.ExecContext(ctx, `INSERT INTO forge_issue_pins (repo_id, number, pin_order) VALUES ($1, $2, $3)`,
			int64(p.Repo), int64(n), i+1); err != nil {
			return fmt.Errorf("write pins of %d: %w", p.Repo, err)
		}
	}
	return nil
}

func writeSubscription(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	s := c.change.Subscription
	if s == nil {
		return nil
	}
	var err error
	if s.On {
		_, err = tx.ExecContext(ctx, `INSERT INTO forge_issue_subscriptions (repo_id, number, user_address) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, int64(s.Repo), int64(s.Number), s.User.Hex())
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM forge_issue_subscriptions WHERE repo_id = $1 AND number = $2 AND user_address = $3`,
			int64(s.Repo), int64(s.Number), s.User.Hex())
	}
	if err != nil {
		return fmt.Errorf("write subscription to %d#%d: %w", s.Repo, s.Number, err)
	}
	return nil
}
