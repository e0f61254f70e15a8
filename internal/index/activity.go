package index

import (
	"context"
	"fmt"

	"github.com/dforge/dforge/internal/index/readdb"
)

// The activity projection (forge_activity, migration 00028): one row per
// public action, written in the block's transaction from the rows the
// change just wrote, so Home, the feed and Gitea's activity feeds read one
// table instead of a union over the forge tables. A rebuild writes it
// again from the blocks (it is one of forgeTables); deleting a repository
// deletes its rows.

// Each verb's place among the actions of one block, for a stable order.
const (
	ordRepoCreate = iota
	ordPush
	ordOpen
	ordComment
	ordReview
	ordMerge
)

const activityInsert = `INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns) `

// writeActivity projects c's actions. It runs after the change's other
// rows are written: the issue's title and the times come from them.
func writeActivity(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	steps := []func(context.Context, *readdb.WriteTx, forgeChange) error{
		activityRepos, activityPushes, activityIssue, activityComment, activityReview, activityMerge,
	}
	for _, step := range steps {
		if err := step(ctx, tx, c); err != nil {
			return fmt.Errorf("write activity: %w", err)
		}
	}
	return nil
}

// activityRepos records a repository's creation the first time a change
// carries it (every later change carries it again).
func activityRepos(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	for _, r := range c.change.Repos {
		if r.Deleted {
			continue
		}
		_, err := tx.ExecContext(ctx, activityInsert+`SELECT r.id, 'repo.create', r.id, CAST($2 AS INTEGER), CAST($3 AS TEXT), 0, FALSE, '', '', '', r.created_height, r.created_time_ns
			FROM forge_repos r WHERE r.id = $1 ON CONFLICT (repo_id, verb, k) DO NOTHING`, int64(r.ID), ordRepoCreate, c.change.Actor.Hex())
		if err != nil {
			return fmt.Errorf("repository %d: %w", r.ID, err)
		}
	}
	return nil
}

func activityPushes(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	for _, ref := range c.change.RefUpdates() {
		_, err := tx.ExecContext(ctx, activityInsert+`VALUES ($1, 'push', $2, $3, $4, 0, FALSE, '', $5, '', $6, $7)
			ON CONFLICT (repo_id, verb, k) DO NOTHING`, int64(ref.Repo), int64(ref.ID), ordPush, c.change.Actor.Hex(), ref.Ref, c.height, c.timeNS)
		if err != nil {
			return fmt.Errorf("push %d: %w", ref.ID, err)
		}
	}
	return nil
}

// activityIssue records an issue's or pull request's opening the first
// time a change carries it, and keeps the title of its rows current.
func activityIssue(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	is := c.change.Issue
	if is == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, activityInsert+`SELECT i.repo_id, CASE WHEN i.is_pull THEN 'pr.open' ELSE 'issue.open' END, i.number, CAST($3 AS INTEGER),
		i.author, i.number, i.is_pull, i.title, '', '', i.created_height, i.created_time_ns
		FROM forge_issues i WHERE i.repo_id = $1 AND i.number = $2 ON CONFLICT (repo_id, verb, k) DO NOTHING`,
		int64(is.Repo), int64(is.Number), ordOpen)
	if err != nil {
		return fmt.Errorf("issue %d#%d: %w", is.Repo, is.Number, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE forge_activity SET title = $3 WHERE repo_id = $1 AND number = $2 AND title <> $3`,
		int64(is.Repo), int64(is.Number), is.Title); err != nil {
		return fmt.Errorf("retitle issue %d#%d: %w", is.Repo, is.Number, err)
	}
	return nil
}

// activityComment records a new comment, follows an edit, and drops a
// deleted one: its row must not outlive its text.
func activityComment(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	cm := c.change.Comment
	if cm == nil {
		return nil
	}
	var err error
	switch {
	case cm.Deleted:
		_, err = tx.ExecContext(ctx, `DELETE FROM forge_activity WHERE repo_id = $1 AND verb = 'comment' AND k = $2`, int64(cm.Repo), int64(cm.ID))
	case cm.Edited:
		_, err = tx.ExecContext(ctx, `UPDATE forge_activity SET content = (SELECT substr(c.body, 1, 200) FROM forge_comments c WHERE c.id = $2)
			WHERE repo_id = $1 AND verb = 'comment' AND k = $2`, int64(cm.Repo), int64(cm.ID))
	default:
		_, err = tx.ExecContext(ctx, activityInsert+`SELECT c.repo_id, 'comment', c.id, CAST($2 AS INTEGER), c.author, c.number, i.is_pull, i.title, '',
			substr(c.body, 1, 200), c.height, c.time_ns
			FROM forge_comments c JOIN forge_issues i ON i.repo_id = c.repo_id AND i.number = c.number
			WHERE c.id = $1 ON CONFLICT (repo_id, verb, k) DO NOTHING`, int64(cm.ID), ordComment)
	}
	if err != nil {
		return fmt.Errorf("comment %d: %w", cm.ID, err)
	}
	return nil
}

func activityReview(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	rv := c.change.Review
	if rv == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, activityInsert+`SELECT v.repo_id, 'review', v.id, CAST($2 AS INTEGER), v.author, v.number, TRUE, i.title, v.state, '', v.height, v.time_ns
		FROM forge_reviews v JOIN forge_issues i ON i.repo_id = v.repo_id AND i.number = v.number
		WHERE v.id = $1 ON CONFLICT (repo_id, verb, k) DO NOTHING`, int64(rv.ID), ordReview)
	if err != nil {
		return fmt.Errorf("review %d: %w", rv.ID, err)
	}
	return nil
}

func activityMerge(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	pr := c.change.Pull
	if pr == nil || !pr.Merged {
		return nil
	}
	_, err := tx.ExecContext(ctx, activityInsert+`SELECT p.repo_id, 'pr.merge', p.number, CAST($3 AS INTEGER), p.merged_by, p.number, TRUE, i.title, '', '',
		p.merged_height, p.merged_time_ns
		FROM forge_pulls p JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
		WHERE p.repo_id = $1 AND p.number = $2 AND p.merged = TRUE AND p.merged_height IS NOT NULL AND p.merged_time_ns IS NOT NULL
		ON CONFLICT (repo_id, verb, k) DO NOTHING`, int64(pr.Repo), int64(pr.Number), ordMerge)
	if err != nil {
		return fmt.Errorf("merge %d#%d: %w", pr.Repo, pr.Number, err)
	}
	return nil
}
