package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index/readdb"
	"github.com/dforge/dforge/internal/store"
)

// Reads over the activity projection (forge_activity, written by
// activity.go): Home's public list, a signed-in user's feed and
// Gitea's user and repository feeds are one query with different filters.
// A private repository's rows appear only to those who may read it.

// Activity is one forge action: a repository created, an issue or pull
// request opened, a comment, a review, a merge or a push.
type Activity struct {
	// ID is the same on every node for the same action (see activityID).
	ID int64 `json:"id"`
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
	Ref string `json:"ref,omitempty"`
	// CommentID and Content are a comment's id and its first 200
	// characters.
	CommentID uint64 `json:"commentId,omitempty"`
	Content   string `json:"content,omitempty"`
	Height    int64  `json:"height"`
	Time      string `json:"time"`

	// at is the action's place in activityOrder, where the page after
	// it starts (activityAfter).
	at [5]int64
}

// ActivityRepo names the repository an action happened in.
type ActivityRepo struct {
	ID       uint64 `json:"id"`
	Owner    string `json:"owner"`
	Name     string `json:"name"`
	FullName string `json:"fullName"`
	Private  bool   `json:"private,omitempty"`
}

// ActivityFilter selects actions. Viewer is whose private repositories
// may appear (the zero address: public ones only); a repository made
// private after the fact drops out, as the filter is on its current row.
type ActivityFilter struct {
	Viewer common.Address
	// FeedOf selects what that account follows: its own actions, those
	// of the accounts it follows, and those in repositories it watches or
	// stars.
	FeedOf *common.Address
	// Actor selects one account's actions; Repo one repository's.
	Actor *common.Address
	Repo  uint64
	// SinceNS and BeforeNS bound the time (0: unbounded).
	SinceNS, BeforeNS int64
}

func (f ActivityFilter) where(args *sqlArgs) string {
	conds := []string{f.readable(args)}
	if f.FeedOf != nil {
		conds = append(conds, feedOf(args.Add(f.FeedOf.Hex()), "a.actor", "a.repo_id"))
	}
	if f.Actor != nil {
		conds = append(conds, "a.actor = "+args.Add(f.Actor.Hex()))
	}
	if f.Repo != 0 {
		conds = append(conds, "a.repo_id = "+args.Add(int64(f.Repo)))
	}
	if f.SinceNS != 0 {
		conds = append(conds, "a.time_ns >= "+args.Add(f.SinceNS))
	}
	if f.BeforeNS != 0 {
		conds = append(conds, "a.time_ns < "+args.Add(f.BeforeNS))
	}
	return strings.Join(conds, " AND ")
}

// feedOf is the condition that an action by actor in repo is in the feed
// of the account me: its own, by an account it follows, or in a
// repository it stars or watches.
func feedOf(me, actor, repo string) string {
	return `(` + actor + ` = ` + me + `
			OR ` + actor + ` IN (SELECT followed FROM forge_follows WHERE follower = ` + me + `)
			OR ` + repo + ` IN (SELECT repo_id FROM forge_stars WHERE user_address = ` + me + `)
			OR ` + repo + ` IN (SELECT repo_id FROM forge_watches WHERE user_address = ` + me + `))`
}

// readable is the condition on the repository r that the viewer may read
// it.
func (f ActivityFilter) readable(args *sqlArgs) string {
	if f.Viewer != (common.Address{}) {
		return readableRepo("r", args.Add(f.Viewer.Hex()))
	}
	return "r.private = FALSE"
}

// activityCount reads the total of the actions f picks from counters
// that triggers keep with every write of forge_activity, where COUNT(*)
// would walk every action again after every block. It is nil when f
// picks by a time, whose totals are counted.
//   - The home page's list and a repository's feed sum one counter per
//     readable repository (forge_activity_repo_counts, migration 00089).
//   - An account's actions sum its counters per repository
//     (forge_activity_counts, 00087), read through their actor index.
//   - A feed sums the counters of the accounts it follows, and those of
//     everyone else in the repositories it stars or watches: two parts
//     that never overlap, each read through an index that covers it,
//     where one condition with OR read every counter (bench-feed: 7.6
//     against 16.7 ms).
func (ix *Index) activityCount(f ActivityFilter) readdb.Count {
	if f.SinceNS != 0 || f.BeforeNS != 0 {
		return nil
	}
	return func(ctx context.Context) (int64, error) {
		var args sqlArgs
		var n int64
		err := ix.queryRow(ctx, activityCountQuery(f, &args), args...).Scan(&n)
		if err != nil {
			return 0, fmt.Errorf("count activity: %w", err)
		}
		return n, nil
	}
}

// activityCountQuery is the statement activityCount runs for f.
func activityCountQuery(f ActivityFilter, args *sqlArgs) string {
	conds := []string{f.readable(args)}
	if f.Repo != 0 {
		conds = append(conds, "c.repo_id = "+args.Add(int64(f.Repo)))
	}
	if f.Actor == nil && f.FeedOf == nil {
		return `SELECT COALESCE(SUM(c.actions), 0) FROM forge_activity_repo_counts c JOIN forge_repos r ON r.id = c.repo_id
			WHERE ` + strings.Join(conds, " AND ")
	}
	if f.Actor != nil {
		conds = append(conds, "c.actor = "+args.Add(f.Actor.Hex()))
	}
	sum := func(conds ...string) string {
		return `(SELECT COALESCE(SUM(c.actions), 0) FROM forge_activity_counts c JOIN forge_repos r ON r.id = c.repo_id
			WHERE ` + strings.Join(conds, " AND ") + `)`
	}
	if f.FeedOf == nil {
		return "SELECT " + sum(conds...)
	}
	me := args.Add(f.FeedOf.Hex())
	people := `(SELECT followed FROM forge_follows WHERE follower = ` + me + ` UNION SELECT CAST(` + me + ` AS TEXT))`
	repos := `(SELECT repo_id FROM forge_stars WHERE user_address = ` + me + `
		UNION SELECT repo_id FROM forge_watches WHERE user_address = ` + me + `)`
	followed := append(slices.Clone(conds), "c.actor IN "+people)
	starred := append(slices.Clone(conds), "c.repo_id IN "+repos, "c.actor NOT IN "+people)
	return "SELECT " + sum(followed...) + " + " + sum(starred...)
}

// readableRepo is the condition that the viewer (the placeholder v) may
// read the repository r: it is public, or theirs, or they collaborate on
// it, or a team of its organization holding it counts them in, as
// Permission decides one at a time. The zero address reads public ones.
func readableRepo(r, v string) string {
	return `(` + r + `.private = FALSE OR ` + r + `.owner = ` + v + `
		OR EXISTS (SELECT 1 FROM forge_collaborators c WHERE c.repo_id = ` + r + `.id AND c.user_address = ` + v + `)
		OR EXISTS (SELECT 1 FROM forge_teams t JOIN forge_team_members m ON m.team_id = t.id
			JOIN forge_orgs o ON o.id = t.org_id
			WHERE m.user_address = ` + v + ` AND o.address = ` + r + `.owner
			AND (t.includes_all_repos OR EXISTS (SELECT 1 FROM forge_team_repos tr WHERE tr.team_id = t.id AND tr.repo_id = ` + r + `.id))))`
}

var activityColumns = `a.verb, a.actor, ` + userExpr("ua") + `, r.id, r.owner, ` + userExpr("oa") +
	`, r.name, r.private, a.number, a.is_pull, a.title, a.detail, a.content, a.k, a.height, a.time_ns, a.ord`

const activityFrom = `forge_activity a JOIN forge_repos r ON r.id = a.repo_id
	LEFT JOIN chain_accounts ua ON ua.address = a.actor LEFT JOIN chain_accounts oa ON oa.address = r.owner`

// activityFromByTime is activityFrom read down the time index (feedFrom).
const activityFromByTime = `forge_activity a INDEXED BY forge_activity_time JOIN forge_repos r ON r.id = a.repo_id
	LEFT JOIN chain_accounts ua ON ua.address = a.actor LEFT JOIN chain_accounts oa ON oa.address = r.owner`

// activityCountFrom is what the filter reads, for a total without the
// names' joins.
const activityCountFrom = `forge_activity a JOIN forge_repos r ON r.id = a.repo_id`

// Newest first. Chain heights and the private store's sequence numbers
// are not comparable, times are; within a block, by verb, then key.
// The order is total: a verb has one ord, and (repo_id, verb, k) is the
// table's key, the open verbs sharing an ord and a number space. So a deep
// page can seek (readdb.SeekPage).
var activityOrder = readdb.Order{Cols: []string{"a.time_ns", "a.height", "a.ord", "a.k", "a.repo_id"}, Desc: true}

// activitiesSize estimates the bytes a page of actions holds, for the
// read cache.
func activitiesSize(list []Activity) int64 {
	n := int64(0)
	for _, a := range list {
		n += int64(len(a.Title)+len(a.Ref)+len(a.Content)+len(a.Repo.FullName)) + 256
	}
	return n
}

// RecentActivity lists the public repositories' actions, newest first:
// the home page's list.
func (ix *Index) RecentActivity(ctx context.Context, p Page) ([]Activity, int64, error) {
	return ix.Activities(ctx, ActivityFilter{}, p)
}

// Activities lists the actions f selects, newest first. A page is kept
// until the projection changes (readdb/cache.go), so the home page's list is
// read from SQL once per change however often it is asked for.
func (ix *Index) Activities(ctx context.Context, f ActivityFilter, p Page) ([]Activity, int64, error) {
	var args sqlArgs
	where := f.where(&args)
	list, total, err := rememberPage(ctx, ix, activityKey(where, args, p), func(ctx context.Context) ([]Activity, int64, error) {
		out := []Activity{}
		scan := func(rows *sql.Rows) error {
			a, err := scanActivity(rows)
			out = append(out, a)
			return err
		}
		var total int64
		var err error
		after := ix.activityAfter(ctx, where, args, p)
		switch {
		case f.FeedOf != nil:
			total, err = ix.feedPage(ctx, f, where, args, p, after, scan)
		case after != nil: // from right after the page before (index README, Deep pages)
			total, err = ix.rd.PageAfter(ctx, activityColumns, activityFrom, activityCountFrom, where, activityOrder, args, after, p, ix.activityCount(f), scan)
		default:
			total, err = ix.rd.SeekPageCounted(ctx, activityColumns, activityFrom, activityCountFrom, where, activityOrder, args, p, ix.activityCount(f), scan)
		}
		return out, total, err
	}, activitiesSize)
	if err != nil {
		return nil, 0, fmt.Errorf("list activity: %w", err)
	}
	return list, total, nil
}

func activityKey(where string, args []any, p Page) string {
	return readKey("activity", where, append(args[:len(args):len(args)], p.Number, p.Limit)...)
}

// feedPage reads page p of a feed (f.FeedOf) and its total. A feed's
// filter (follows, stars, watches) costs more than the joins a seek saves,
// and a seek runs it twice (index README), so it is read by OFFSET, or,
// given the place of the last action of the page before (after, from
// activityAfter), from right after it (readdb.PageAfter). Its total comes
// first, as it picks how (feedFrom).
func (ix *Index) feedPage(ctx context.Context, f ActivityFilter, where string, args []any, p Page, after []any, scan func(*sql.Rows) error) (int64, error) {
	total, err := ix.activityCount(f)(ctx)
	if err != nil {
		return 0, err
	}
	counted := func(context.Context) (int64, error) { return total, nil }
	from, err := ix.feedFrom(ctx, total, p, after != nil)
	if err != nil {
		return 0, err
	}
	if after != nil {
		return ix.rd.PageAfter(ctx, activityColumns, from, activityCountFrom, where, activityOrder, args, after, p, counted, scan)
	}
	return ix.rd.ListPageCounted(ctx, activityColumns, from, activityCountFrom, where, activityOrder.SQL(), args, p, counted, scan)
}

// activityAfter is the place in activityOrder of the last action of the
// page before p, when that page is kept (lastKept); nil otherwise.
func (ix *Index) activityAfter(ctx context.Context, where string, args []any, p Page) []any {
	last, ok := lastKept[Activity](ctx, ix, p, func(p Page) string { return activityKey(where, args, p) })
	if !ok {
		return nil
	}
	return []any{last.at[0], last.at[1], last.at[2], last.at[3], last.at[4]}
}

// feedFrom is what page p of a feed with matches actions is read from;
// keyed, it starts right after the page before it (feedPage). Found
// through the actor and repository indexes, a feed's matches from the
// page's start on are all read and sorted: a cost per match. On SQLite a
// dense feed's pages come sooner from a walk down the time index, every
// action newest first, from the page's start (keyed) or the list's until
// the page is full: a cost per action walked, about limit·all/matches of
// them from the page's start, (offset+limit)·all/matches from the list's.
// bench-feed's feed (7% of 200,000 actions) measured 1.7 µs a match
// sorted and 0.46 µs an action walked, page 1 in 24 ms against 0.3 ms, so
// the walk is taken while it steps through fewer than three times the
// matches the indexes would sort. A page past the end always uses the
// indexes. PostgreSQL's planner chooses for itself, from its statistics.
func (ix *Index) feedFrom(ctx context.Context, matches int64, p Page, keyed bool) (string, error) {
	if ix.dialect != store.SQLite || int64(p.Offset()) >= matches {
		return activityFrom, nil
	}
	sorted, upTo := matches, int64(p.Offset()+p.Limit)
	if keyed {
		sorted, upTo = matches-int64(p.Offset()), int64(p.Limit)
	}
	// Every feed's first read after a block needs it: kept until the
	// counters change.
	const q = `SELECT COALESCE(SUM(actions), 0) FROM forge_activity_repo_counts`
	all, err := remember(ctx, ix, readKey("activity-all", q), func(ctx context.Context) (int64, error) {
		var n int64
		err := ix.queryRow(ctx, q).Scan(&n)
		return n, err
	})
	if err != nil {
		return "", fmt.Errorf("count every action: %w", err)
	}
	if walked := upTo * all / matches; walked < 3*sorted {
		return activityFromByTime, nil
	}
	return activityFrom, nil
}

func scanActivity(rows *sql.Rows) (Activity, error) {
	var a Activity
	var actor, actorName, owner, ownerName, detail string
	var repo, number, k, ns, ord int64
	err := rows.Scan(&a.Type, &actor, &actorName, &repo, &owner, &ownerName, &a.Repo.Name, &a.Repo.Private, &number, &a.IsPull,
		&a.Title, &detail, &a.Content, &k, &a.Height, &ns, &ord)
	if err != nil {
		return a, err
	}
	a.at = [5]int64{ns, a.Height, ord, k, repo} // activityOrder's columns
	a.ID = activityID(uint64(repo), a.Type, uint64(k))
	a.Actor = user(actor, actorName)
	a.Repo.ID, a.Repo.Owner = uint64(repo), user(owner, ownerName).Username
	a.Repo.FullName = a.Repo.Owner + "/" + a.Repo.Name
	a.Number, a.Time = uint64(number), formatTime(ns)
	switch a.Type {
	case "review":
		a.State = detail
	case "push":
		a.Ref = detail
	case "comment":
		a.CommentID = uint64(k)
	}
	return a, nil
}

// activityID is a row's number for clients that want one (Gitea's
// Activity.id): a hash of its key, cut to 52 bits so JavaScript reads it
// exactly, the same on every node without a counter.
func activityID(repo uint64, verb string, k uint64) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", repo, verb, k)
	return int64(h.Sum64() >> 12)
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
	list, err := rememberSized(ctx, ix, readKey("top-contributors", "", since, limit), func(ctx context.Context) ([]Contributor, error) {
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
