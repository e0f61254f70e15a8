package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Node-wide reads over the forge projection for the home page: the recent
// activity feed and the most active contributors. Both cover public
// repositories only: a private repository's rows (and anything about
// them) never appear, whoever asks.

// Activity is one public forge action: a repository created, an issue or
// pull request opened, a comment, a review, a merge or a push.
type Activity struct {
	// Type is repo.create, issue.open, pr.open, comment, review,
	// pr.merge or push.
	Type  string       `json:"type"`
	Actor User         `json:"actor"`
	Repo  ActivityRepo `json:"repo"`
	// Number and Title name the issue or pull request acted on (none for
	// repo.create and push); IsPull says which of the two it is.
	Number uint64 `json:"number,omitempty"`
	Title  string `json:"title,omitempty"`
	IsPull bool   `json:"isPull,omitempty"`
	// State is a review's verdict: approve, request_changes or comment.
	State string `json:"state,omitempty"`
	// Ref is the ref a push updated (refs/heads/main).
	Ref    string `json:"ref,omitempty"`
	Height int64  `json:"height"`
	Time   string `json:"time"`
}

// ActivityRepo names the repository an action happened in.
type ActivityRepo struct {
	ID       uint64 `json:"id"`
	Owner    string `json:"owner"`
	Name     string `json:"name"`
	FullName string `json:"fullName"`
}

// activityUnion lists every action with the same columns: kind, ord (the
// order of kinds within one block, for a stable sort), actor, repo_id,
// number, is_pull, title, detail (a review's state, a push's ref),
// height, time_ns and k (the row's own key, the last tiebreak).
const activityUnion = `
	SELECT 'repo.create' AS kind, 0 AS ord, r.owner AS actor, r.id AS repo_id, 0 AS number, FALSE AS is_pull,
		'' AS title, '' AS detail, r.created_height AS height, r.created_time_ns AS time_ns, r.id AS k
	FROM forge_repos r
	UNION ALL
	SELECT 'push', 1, u.pusher, u.repo_id, 0, FALSE, '', u.ref, u.height, u.time_ns, u.id
	FROM forge_ref_updates u
	UNION ALL
	SELECT CASE WHEN i.is_pull THEN 'pr.open' ELSE 'issue.open' END, 2, i.author, i.repo_id, i.number, i.is_pull,
		i.title, '', i.created_height, i.created_time_ns, i.number
	FROM forge_issues i
	UNION ALL
	SELECT 'comment', 3, c.author, c.repo_id, c.number, i.is_pull, i.title, '', c.height, c.time_ns, c.id
	FROM forge_comments c JOIN forge_issues i ON i.repo_id = c.repo_id AND i.number = c.number
	UNION ALL
	SELECT 'review', 4, v.author, v.repo_id, v.number, TRUE, i.title, v.state, v.height, v.time_ns, v.id
	FROM forge_reviews v JOIN forge_issues i ON i.repo_id = v.repo_id AND i.number = v.number
	UNION ALL
	SELECT 'pr.merge', 5, p.merged_by, p.repo_id, p.number, TRUE, i.title, '', p.merged_height, p.merged_time_ns, p.number
	FROM forge_pulls p JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
	WHERE p.merged = TRUE AND p.merged_height IS NOT NULL AND p.merged_time_ns IS NOT NULL`

var activityColumns = `a.kind, a.actor, ` + userExpr("ua") + `, r.id, r.owner, ` + userExpr("oa") +
	`, r.name, a.number, a.is_pull, a.title, a.detail, a.height, a.time_ns`

// The private filter is on the repository each row joins, so it also
// holds for a repository that became private after the fact.
const activityFrom = `(` + activityUnion + `) a JOIN forge_repos r ON r.id = a.repo_id
	LEFT JOIN chain_accounts ua ON ua.address = a.actor LEFT JOIN chain_accounts oa ON oa.address = r.owner`

// RecentActivity lists the public repositories' actions, newest first
// (by height, then kind and key within a block). A page is kept until the
// projection changes (readcache.go), so the home page's feed is read from
// SQL once per change however often it is asked for.
func (ix *Index) RecentActivity(ctx context.Context, p Page) ([]Activity, int64, error) {
	type activityPage struct {
		items []Activity
		total int64
	}
	page, err := rememberSized(ix, readKey("activity", "", p.Number, p.Limit), func() (activityPage, error) {
		out := []Activity{}
		total, err := ix.page(ctx, activityColumns, activityFrom, "r.private = FALSE", "a.height DESC, a.ord DESC, a.k DESC, a.repo_id DESC",
			nil, p, func(rows *sql.Rows, total *int64) error {
				a, err := scanActivity(rows, total)
				out = append(out, a)
				return err
			})
		return activityPage{out, total}, err
	}, func(pg activityPage) int64 {
		n := int64(0)
		for _, a := range pg.items {
			n += int64(len(a.Title)+len(a.Ref)+len(a.Repo.FullName)) + 256
		}
		return n
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list recent activity: %w", err)
	}
	return append([]Activity{}, page.items...), page.total, nil
}

func scanActivity(rows *sql.Rows, total *int64) (Activity, error) {
	var a Activity
	var actor, actorName, owner, ownerName, detail string
	var repo, number, ns int64
	err := rows.Scan(&a.Type, &actor, &actorName, &repo, &owner, &ownerName, &a.Repo.Name, &number, &a.IsPull, &a.Title, &detail,
		&a.Height, &ns, total)
	if err != nil {
		return a, err
	}
	a.Actor = user(actor, actorName)
	a.Repo.ID, a.Repo.Owner = uint64(repo), user(owner, ownerName).Username
	a.Repo.FullName = a.Repo.Owner + "/" + a.Repo.Name
	a.Number, a.Time = uint64(number), formatTime(ns)
	switch a.Type {
	case "review":
		a.State = detail
	case "push":
		a.Ref = detail
	}
	return a, nil
}

// Contributor is an account's contributions to public repositories over a
// window of chain time, by kind. A merged pull request counts for its
// author.
type Contributor struct {
	Address      string `json:"address"`
	Username     string `json:"username"`
	Total        int64  `json:"total"`
	Pushes       int64  `json:"pushes"`
	PullsOpened  int64  `json:"pullsOpened"`
	PullsMerged  int64  `json:"pullsMerged"`
	Reviews      int64  `json:"reviews"`
	IssuesOpened int64  `json:"issuesOpened"`
	Comments     int64  `json:"comments"`
}

// contributionUnion is every contribution since $1 (Unix ns): its kind,
// who made it and where.
const contributionUnion = `
	SELECT 'push' AS kind, u.pusher AS actor, u.repo_id AS repo_id FROM forge_ref_updates u WHERE u.time_ns >= $1
	UNION ALL
	SELECT CASE WHEN i.is_pull THEN 'pull' ELSE 'issue' END, i.author, i.repo_id FROM forge_issues i WHERE i.created_time_ns >= $1
	UNION ALL
	SELECT 'merge', i.author, p.repo_id FROM forge_pulls p JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
	WHERE p.merged = TRUE AND p.merged_time_ns >= $1
	UNION ALL
	SELECT 'review', v.author, v.repo_id FROM forge_reviews v WHERE v.time_ns >= $1
	UNION ALL
	SELECT 'comment', c.author, c.repo_id FROM forge_comments c WHERE c.time_ns >= $1`

// Ties go to the lower address; lower() so both databases order hex the
// same whatever their collation.
var topContributorsQuery = `SELECT c.actor, ` + userExpr("a") + `, COUNT(*),
	SUM(CASE WHEN c.kind = 'push' THEN 1 ELSE 0 END), SUM(CASE WHEN c.kind = 'pull' THEN 1 ELSE 0 END),
	SUM(CASE WHEN c.kind = 'merge' THEN 1 ELSE 0 END), SUM(CASE WHEN c.kind = 'review' THEN 1 ELSE 0 END),
	SUM(CASE WHEN c.kind = 'issue' THEN 1 ELSE 0 END), SUM(CASE WHEN c.kind = 'comment' THEN 1 ELSE 0 END)
	FROM (` + contributionUnion + `) c JOIN forge_repos r ON r.id = c.repo_id
	LEFT JOIN chain_accounts a ON a.address = c.actor
	WHERE r.private = FALSE
	GROUP BY c.actor, a.username, a.default_name
	ORDER BY COUNT(*) DESC, lower(c.actor)
	LIMIT $2`

// TopContributors lists the limit accounts with the most contributions to
// public repositories in the window before the latest projected block:
// chain time, not the node's clock, so every node answers the same for
// the same height.
func (ix *Index) TopContributors(ctx context.Context, window time.Duration, limit int) ([]Contributor, error) {
	var now int64
	err := ix.queryRow(ctx, `SELECT time_ns FROM chain_blocks ORDER BY height DESC LIMIT 1`).Scan(&now)
	if errors.Is(err, sql.ErrNoRows) {
		return []Contributor{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the latest block time: %w", err)
	}
	since := now - window.Nanoseconds()
	list, err := rememberSized(ix, readKey("top-contributors", "", since, limit), func() ([]Contributor, error) {
		rows, err := ix.query(ctx, topContributorsQuery, since, limit)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []Contributor{}
		for rows.Next() {
			var c Contributor
			var name string
			if err := rows.Scan(&c.Address, &name, &c.Total, &c.Pushes, &c.PullsOpened, &c.PullsMerged, &c.Reviews,
				&c.IssuesOpened, &c.Comments); err != nil {
				return nil, err
			}
			c.Username = user(c.Address, name).Username
			out = append(out, c)
		}
		return out, rows.Err()
	}, func(list []Contributor) int64 { return int64(len(list)) * 160 })
	if err != nil {
		return nil, fmt.Errorf("list top contributors: %w", err)
	}
	return append([]Contributor{}, list...), nil
}
