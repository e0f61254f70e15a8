package index

import (
	"context"
	"fmt"
)

// Reaction is a person's reaction on an issue or comment.
type Reaction struct {
	User    User   `json:"user"`
	Content string `json:"content"`
	Created string `json:"created"`
}

// Reactions lists the reactions on issue number of repo (comment 0) or on
// one of its comments, oldest first.
func (ix *Index) Reactions(ctx context.Context, repo, number, comment uint64) ([]Reaction, error) {
	rows, err := ix.query(ctx, `SELECT r.user_address, `+userExpr("a")+`, r.content, r.time_ns FROM forge_reactions r
		LEFT JOIN chain_accounts a ON a.address = r.user_address
		WHERE r.repo_id = $1 AND r.number = $2 AND r.comment_id = $3 ORDER BY r.time_ns, r.user_address, r.content`,
		int64(repo), int64(number), int64(comment))
	if err != nil {
		return nil, fmt.Errorf("list reactions: %w", err)
	}
	defer rows.Close()
	out := []Reaction{}
	for rows.Next() {
		var addr, name string
		var ns int64
		var r Reaction
		if err := rows.Scan(&addr, &name, &r.Content, &ns); err != nil {
			return nil, fmt.Errorf("list reactions: %w", err)
		}
		r.User, r.Created = user(addr, name), formatTime(ns)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list reactions: %w", err)
	}
	return out, nil
}

// PinnedIssues lists repo's pinned issues and pull requests in pin order,
// with their pin order.
func (ix *Index) PinnedIssues(ctx context.Context, repo uint64) ([]Issue, error) {
	rows, err := ix.query(ctx, `SELECT `+issueColumns+` FROM forge_issue_pins p
		JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
		LEFT JOIN chain_accounts ua ON ua.address = i.author WHERE p.repo_id = $1 ORDER BY p.pin_order`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("list pinned issues: %w", err)
	}
	out := []Issue{}
	for rows.Next() {
		is, err := scanIssue(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("list pinned issues: %w", err)
		}
		out = append(out, is)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list pinned issues: %w", err)
	}
	return out, ix.fillIssues(ctx, repo, out)
}

// Subscribers lists the addresses subscribed to issue number of repo.
func (ix *Index) Subscribers(ctx context.Context, repo, number uint64) ([]User, error) {
	rows, err := ix.query(ctx, `SELECT s.user_address, `+userExpr("a")+` FROM forge_issue_subscriptions s
		LEFT JOIN chain_accounts a ON a.address = s.user_address WHERE s.repo_id = $1 AND s.number = $2 ORDER BY s.user_address`,
		int64(repo), int64(number))
	if err != nil {
		return nil, fmt.Errorf("list subscribers: %w", err)
	}
	defer rows.Close()
	out := []User{}
	for rows.Next() {
		var addr, name string
		if err := rows.Scan(&addr, &name); err != nil {
			return nil, fmt.Errorf("list subscribers: %w", err)
		}
		out = append(out, user(addr, name))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list subscribers: %w", err)
	}
	return out, nil
}

// Subscribed reports whether addr is subscribed to issue number of repo.
func (ix *Index) Subscribed(ctx context.Context, repo, number uint64, addr string) (bool, error) {
	var n int64
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_issue_subscriptions WHERE repo_id = $1 AND number = $2 AND user_address = $3`,
		int64(repo), int64(number), addr).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read subscription: %w", err)
	}
	return n > 0, nil
}
