package index

import (
	"context"
	"fmt"
)

// ReviewRequested is the state of a review request listed among reviews,
// as Gitea's REQUEST_REVIEW.
const ReviewRequested = "request"

// reviewRequests lists pull request number's open review requests as
// reviews in state ReviewRequested, oldest first.
func (ix *Index) reviewRequests(ctx context.Context, repo, number uint64) ([]Review, error) {
	rows, err := ix.query(ctx, `SELECT r.review_id, r.reviewer, `+userExpr("a")+`, r.height, r.time_ns
		FROM forge_review_requests r LEFT JOIN chain_accounts a ON a.address = r.reviewer
		WHERE r.repo_id = $1 AND r.number = $2 ORDER BY r.review_id`, int64(repo), int64(number))
	if err != nil {
		return nil, fmt.Errorf("list review requests: %w", err)
	}
	defer rows.Close()
	out := []Review{}
	for rows.Next() {
		var id, ns int64
		var reviewer, name string
		rv := Review{State: ReviewRequested, Comments: []ReviewComment{}}
		if err := rows.Scan(&id, &reviewer, &name, &rv.Height, &ns); err != nil {
			return nil, fmt.Errorf("list review requests: %w", err)
		}
		rv.ID, rv.Author, rv.Submitted = uint64(id), user(reviewer, name), formatTime(ns)
		out = append(out, rv)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list review requests: %w", err)
	}
	return out, nil
}

// RequestedReviewers lists the people asked to review pull request number.
func (ix *Index) RequestedReviewers(ctx context.Context, repo, number uint64) ([]User, error) {
	rqs, err := ix.reviewRequests(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	out := make([]User, len(rqs))
	for i, rq := range rqs {
		out[i] = rq.Author
	}
	return out, nil
}

// fillRequested reads the requested reviewers of the pull requests in
// out, whose numbers are in (with args, from issueNumbers), in one query.
func (ix *Index) fillRequested(ctx context.Context, repo uint64, in string, args []any, out map[uint64]Pull) error {
	rows, err := ix.query(ctx, `SELECT r.number, r.reviewer, `+userExpr("a")+`
		FROM forge_review_requests r LEFT JOIN chain_accounts a ON a.address = r.reviewer
		WHERE r.repo_id = $1 AND r.number IN (`+in+`) ORDER BY r.review_id`, args...)
	if err != nil {
		return fmt.Errorf("read requested reviewers: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n int64
		var reviewer, name string
		if err := rows.Scan(&n, &reviewer, &name); err != nil {
			return fmt.Errorf("read requested reviewers: %w", err)
		}
		if pr, ok := out[uint64(n)]; ok {
			pr.RequestedReviewers = append(pr.RequestedReviewers, user(reviewer, name))
			out[uint64(n)] = pr
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read requested reviewers: %w", err)
	}
	return nil
}
