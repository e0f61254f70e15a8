package store

import (
	"context"
	"fmt"
	"time"
)

// ReviewDraft is a pending pull request review: private to its author (a
// wallet address) until submitted, so it stays on the node.
type ReviewDraft struct {
	ID        int64
	Author    string
	Repo      uint64
	Number    uint64
	Payload   string // the review as it will be sent, as JSON
	CreatedAt time.Time
}

// AddReviewDraft stores a draft and returns its id.
func (s *Store) AddReviewDraft(ctx context.Context, d ReviewDraft) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO review_drafts (author, repo_id, number, payload, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		d.Author, int64(d.Repo), int64(d.Number), d.Payload, d.CreatedAt.UnixMilli()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert review draft: %w", err)
	}
	return id, nil
}

// ReviewDraftsOf lists author's drafts on pull request number of repo,
// oldest first.
func (s *Store) ReviewDraftsOf(ctx context.Context, author string, repo, number uint64) ([]ReviewDraft, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, author, repo_id, number, payload, created_at FROM review_drafts
		WHERE repo_id = $1 AND number = $2 AND author = $3 ORDER BY id`, int64(repo), int64(number), author)
	if err != nil {
		return nil, fmt.Errorf("query review drafts: %w", err)
	}
	defer rows.Close()
	out := []ReviewDraft{}
	for rows.Next() {
		var d ReviewDraft
		var repoID, num, created int64
		if err := rows.Scan(&d.ID, &d.Author, &repoID, &num, &d.Payload, &created); err != nil {
			return nil, fmt.Errorf("scan review draft: %w", err)
		}
		d.Repo, d.Number, d.CreatedAt = uint64(repoID), uint64(num), time.UnixMilli(created).UTC()
		out = append(out, d)
	}
	return out, rows.Err()
}

// DeleteReviewDraft deletes author's draft id; false if there is none.
func (s *Store) DeleteReviewDraft(ctx context.Context, author string, id int64) (bool, error) {
	return s.affected(s.db.ExecContext(ctx, `DELETE FROM review_drafts WHERE id = $1 AND author = $2`, id, author))
}

// UpdateReviewDraft replaces the payload of author's draft id; false if
// there is none.
func (s *Store) UpdateReviewDraft(ctx context.Context, author string, id int64, payload string) (bool, error) {
	return s.affected(s.db.ExecContext(ctx, `UPDATE review_drafts SET payload = $1 WHERE id = $2 AND author = $3`, payload, id, author))
}
