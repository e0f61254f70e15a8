package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Pull requests: their records over the issue, and their reviews.

// Pull is a projected pull request with its conversation.
type Pull struct {
	Issue
	HeadRepo   uint64 `json:"headRepo"`
	HeadBranch string `json:"headBranch"`
	BaseBranch string `json:"baseBranch"`
	HeadSHA    string `json:"headSha"`
	BaseSHA    string `json:"baseSha"`
	Merged     bool   `json:"merged"`
	MergeSHA   string `json:"mergeSha"`
	MergeStyle string `json:"mergeStyle"`
	MergedBy   *User  `json:"mergedBy,omitempty"`
	MergedAt   string `json:"mergedAt,omitempty"`
	// RequestedReviewers are the people asked for a review, oldest first.
	RequestedReviewers []User `json:"requestedReviewers"`
}

// Pull reads pull request number of repository repo.
func (ix *Index) Pull(ctx context.Context, repo, number uint64) (Pull, error) {
	is, err := ix.Issue(ctx, repo, number)
	if err != nil {
		return Pull{}, err
	}
	if !is.IsPull {
		return Pull{}, notFound("#%d is an issue, not a pull request", number)
	}
	pr, err := scanPull(ix.queryRow(ctx, `SELECT `+pullColumns+` FROM `+pullFrom+` WHERE p.repo_id = $1 AND p.number = $2`,
		int64(repo), int64(number)))
	if err != nil {
		return Pull{}, fmt.Errorf("read pull request #%d: %w", number, err)
	}
	pr.Issue = is
	if pr.RequestedReviewers, err = ix.RequestedReviewers(ctx, repo, number); err != nil {
		return Pull{}, err
	}
	return pr, nil
}

// PullsOf reads the pull request records of the pull requests among
// issues (a list of repo's issues, as Issues gives them), in one query,
// by number. Issues that are not pull requests have none.
func (ix *Index) PullsOf(ctx context.Context, repo uint64, issues []Issue) (map[uint64]Pull, error) {
	var pulls []Issue
	at := map[uint64]Issue{}
	for _, is := range issues {
		if is.IsPull {
			pulls = append(pulls, is)
			at[is.Number] = is
		}
	}
	out := make(map[uint64]Pull, len(pulls))
	if len(pulls) == 0 {
		return out, nil
	}
	in, args := issueNumbers(pulls, []any{int64(repo)})
	rows, err := ix.query(ctx, `SELECT p.number, `+pullColumns+` FROM `+pullFrom+` WHERE p.repo_id = $1 AND p.number IN (`+in+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read pull requests: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n int64
		pr, err := scanPull(rows, &n)
		if err != nil {
			return nil, fmt.Errorf("read pull requests: %w", err)
		}
		pr.Issue, pr.RequestedReviewers = at[uint64(n)], []User{}
		out[uint64(n)] = pr
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read pull requests: %w", err)
	}
	return out, ix.fillRequested(ctx, repo, in, args, out)
}

const pullColumns = `p.head_repo_id, p.head_branch, p.base_branch, p.head_sha, p.base_sha, p.merged,

	p.merge_sha, p.merge_style, p.merged_by, ` + "COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')" + `, p.merged_time_ns`

const pullFrom = `forge_pulls p LEFT JOIN chain_accounts a ON a.address = p.merged_by`

// scanPull reads pullColumns, after the columns of lead.
func scanPull(row scanner, lead ...any) (Pull, error) {
	var pr Pull
	var headRepo int64
	var mergedBy, mergedByName string
	var mergedNS sql.NullInt64
	err := row.Scan(append(lead, &headRepo, &pr.HeadBranch, &pr.BaseBranch, &pr.HeadSHA, &pr.BaseSHA, &pr.Merged,
		&pr.MergeSHA, &pr.MergeStyle, &mergedBy, &mergedByName, &mergedNS)...)
	if err != nil {
		return Pull{}, err
	}
	pr.HeadRepo = uint64(headRepo)
	if pr.Merged {
		u := user(mergedBy, mergedByName)
		pr.MergedBy = &u
	}
	if mergedNS.Valid {
		pr.MergedAt = formatTime(mergedNS.Int64)
	}
	return pr, nil
}

// Review is a pull request review with its inline comments.
type Review struct {
	ID        uint64          `json:"id"`
	Author    User            `json:"author"`
	State     string          `json:"state"`
	Body      string          `json:"body"`
	CommitSHA string          `json:"commitSha"`
	Height    int64           `json:"height"`
	Submitted string          `json:"submitted"`
	Comments  []ReviewComment `json:"comments"`
	// Dismissed by a maintainer, for DismissMessage.
	Dismissed      bool   `json:"dismissed"`
	DismissMessage string `json:"dismissMessage,omitempty"`
	// Signer and Delegation: who signed it on chain, as an issue's.
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// ReviewComment is an inline comment of a review.
type ReviewComment struct {
	ID       uint64 `json:"id"`
	ReviewID uint64 `json:"reviewId"`
	Path     string `json:"path"`
	Line     uint64 `json:"line"`
	Side     string `json:"side"`
	Body     string `json:"body"`
}

// Reviews lists the reviews of pull request number, oldest first, with
// their inline comments, then its open review requests (ReviewRequested).
func (ix *Index) Reviews(ctx context.Context, repo, number uint64) ([]Review, error) {
	rows, err := ix.query(ctx, `SELECT r.id, r.author, `+userExpr("a")+`, r.state, r.body, r.commit_sha, r.height, r.time_ns, r.dismissed, r.dismiss_message, r.signer, r.delegation
		FROM forge_reviews r LEFT JOIN chain_accounts a ON a.address = r.author WHERE r.repo_id = $1 AND r.number = $2 ORDER BY r.id`,
		int64(repo), int64(number))
	if err != nil {
		return nil, fmt.Errorf("list reviews: %w", err)
	}
	out := []Review{}
	at := map[uint64]int{}
	for rows.Next() {
		var rv Review
		var id, ns int64
		var author, name string
		if err := rows.Scan(&id, &author, &name, &rv.State, &rv.Body, &rv.CommitSHA, &rv.Height, &ns, &rv.Dismissed, &rv.DismissMessage, &rv.Signer, &rv.Delegation); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list reviews: %w", err)
		}
		rv.ID, rv.Author, rv.Submitted, rv.Comments = uint64(id), user(author, name), formatTime(ns), []ReviewComment{}
		at[rv.ID] = len(out)
		out = append(out, rv)
	}
	err = rows.Err() // a read cut short is an error, not a shorter list
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("list reviews: %w", err)
	}
	comments, err := ix.ReviewComments(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	for _, c := range comments {
		if i, ok := at[c.ReviewID]; ok {
			out[i].Comments = append(out[i].Comments, c)
		}
	}
	requests, err := ix.reviewRequests(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	return append(out, requests...), nil
}

// ReviewComments lists the inline comments on pull request number.
func (ix *Index) ReviewComments(ctx context.Context, repo, number uint64) ([]ReviewComment, error) {
	rows, err := ix.query(ctx, `SELECT id, review_id, path, line, side, body FROM forge_review_comments
		WHERE repo_id = $1 AND number = $2 ORDER BY id`, int64(repo), int64(number))
	if err != nil {
		return nil, fmt.Errorf("list review comments: %w", err)
	}
	defer rows.Close()
	out := []ReviewComment{}
	for rows.Next() {
		var c ReviewComment
		var id, review, line int64
		if err := rows.Scan(&id, &review, &c.Path, &line, &c.Side, &c.Body); err != nil {
			return nil, fmt.Errorf("list review comments: %w", err)
		}
		c.ID, c.ReviewID, c.Line = uint64(id), uint64(review), uint64(line)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list review comments: %w", err)
	}
	return out, nil
}

// PullByBranches finds the number of repo's pull request from headBranch
// of headRepo into baseBranch: the open one when there is one, else the
// newest (Gitea's GET /pulls/{base}/{head}).
func (ix *Index) PullByBranches(ctx context.Context, repo, headRepo uint64, baseBranch, headBranch string) (uint64, error) {
	var number int64
	err := ix.queryRow(ctx, `SELECT p.number FROM forge_pulls p JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
		WHERE p.repo_id = $1 AND p.head_repo_id = $2 AND p.base_branch = $3 AND p.head_branch = $4
		ORDER BY CASE WHEN i.state = 'open' THEN 0 ELSE 1 END, p.number DESC LIMIT 1`,
		int64(repo), int64(headRepo), baseBranch, headBranch).Scan(&number)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFound("no pull request from %s into %s", headBranch, baseBranch)
	}
	if err != nil {
		return 0, fmt.Errorf("find the pull request from %s into %s: %w", headBranch, baseBranch, err)
	}
	return uint64(number), nil
}
