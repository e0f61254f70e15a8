package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index/readdb"
)

// Issues (pull requests' conversations too) with their labels, assignees
// and comments.

// Issue is a projected issue or pull request conversation.
type Issue struct {
	Repo        uint64  `json:"repo"`
	Number      uint64  `json:"number"`
	IsPull      bool    `json:"isPull"`
	Author      User    `json:"author"`
	Title       string  `json:"title"`
	Body        string  `json:"body"`
	State       string  `json:"state"`
	StateReason string  `json:"stateReason"`
	Comments    uint64  `json:"comments"`
	Labels      []Label `json:"labels"`
	Assignees   []User  `json:"assignees"`
	// MilestoneID is the milestone it is filed under (0 for none), which
	// Milestone shows.
	MilestoneID uint64     `json:"milestoneId,omitempty"`
	Milestone   *Milestone `json:"milestone,omitempty"`
	// PinOrder is its place among the pinned issues; 0 when not pinned.
	PinOrder      int    `json:"pinOrder,omitempty"`
	CreatedHeight int64  `json:"createdHeight"`
	Created       string `json:"created"`
	UpdatedHeight int64  `json:"updatedHeight"`
	Updated       string `json:"updated"`
	Closed        string `json:"closed,omitempty"`
	// Signer is the key that signed its creation and Delegation the
	// delegate it acted under ("" when the author signed; both "" before
	// the own-keys rules).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

const issueColumns = `i.repo_id, i.number, i.is_pull, i.author, ` + "COALESCE(ua.username, ua.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')" + `, i.title, i.body,

	i.state, i.state_reason, i.comments, i.created_height, i.created_time_ns, i.updated_height, i.updated_time_ns, i.closed_time_ns, COALESCE(i.milestone_id, 0),
	COALESCE((SELECT p.pin_order FROM forge_issue_pins p WHERE p.repo_id = i.repo_id AND p.number = i.number), 0),
	i.signer, i.delegation`

const issueFrom = `forge_issues i LEFT JOIN chain_accounts ua ON ua.address = i.author`

func scanIssue(row scanner, extra ...any) (Issue, error) {
	var is Issue
	var repo, number, comments, createdNS, updatedNS int64
	var author, authorName string
	var closedNS sql.NullInt64
	var milestone, pin int64
	err := row.Scan(append([]any{&repo, &number, &is.IsPull, &author, &authorName, &is.Title, &is.Body, &is.State, &is.StateReason,
		&comments, &is.CreatedHeight, &createdNS, &is.UpdatedHeight, &updatedNS, &closedNS, &milestone, &pin, &is.Signer, &is.Delegation}, extra...)...)
	is.MilestoneID, is.PinOrder = uint64(milestone), int(pin)
	is.Repo, is.Number, is.Comments, is.Author = uint64(repo), uint64(number), uint64(comments), user(author, authorName)
	is.Created, is.Updated = formatTime(createdNS), formatTime(updatedNS)
	if closedNS.Valid {
		is.Closed = formatTime(closedNS.Int64)
	}
	is.Labels, is.Assignees = []Label{}, []User{}
	return is, err
}

// Issue reads issue (or pull request) number of repository repo. The
// answer is kept until a write to this issue's rows, or an unscoped one to
// a table it read (issueScope).
func (ix *Index) Issue(ctx context.Context, repo, number uint64) (Issue, error) {
	is, err := rememberSized(readdb.InScope(ctx, issueScope(repo, number)), ix, readKey("issue", "", repo, number),
		func(ctx context.Context) (Issue, error) { return ix.issue(ctx, repo, number) }, Issue.size)
	if err != nil {
		return Issue{}, err
	}
	return is.clone(), nil
}

func (ix *Index) issue(ctx context.Context, repo, number uint64) (Issue, error) {
	is, err := scanIssue(ix.queryRow(ctx, `SELECT `+issueColumns+` FROM `+issueFrom+` WHERE i.repo_id = $1 AND i.number = $2`, int64(repo), int64(number)))
	if errors.Is(err, sql.ErrNoRows) {
		return Issue{}, notFound("there is no issue or pull request #%d", number)
	}
	if err != nil {
		return Issue{}, fmt.Errorf("read issue #%d: %w", number, err)
	}
	list := []Issue{is}
	if err := ix.fillIssues(ctx, repo, list); err != nil {
		return Issue{}, err
	}
	return list[0], nil
}

// issueScope is the scope (readdb.Scope) of one issue's rows: its row of
// forge_issues, its labels, its assignees and its comments. The writes of
// an issue and of its comments run in it, and so do the reads of one
// issue and of its comments.
func issueScope(repo, number uint64) readdb.Scope { return readdb.NewScope(repo, number) }

// clone is a copy of is that shares nothing a caller could change with
// the one kept in the read cache.
func (is Issue) clone() Issue {
	is.Labels, is.Assignees = slices.Clone(is.Labels), slices.Clone(is.Assignees)
	if is.Milestone != nil {
		m := *is.Milestone
		is.Milestone = &m
	}
	return is
}

// size estimates the bytes is holds, for the read cache.
func (is Issue) size() int64 {
	n := 512 + len(is.Title) + len(is.Body) + 160*len(is.Labels) + 96*len(is.Assignees)
	if is.Milestone != nil {
		n += 256 + len(is.Milestone.Description)
	}
	return int64(n)
}

// IssueFilter narrows an issue list; zero fields match everything.
type IssueFilter struct {
	IsPull *bool
	State  string // "open", "closed" or "" for both
	Author *common.Address
	Label  uint64
	Query  string // a substring of the title, any case
	// Milestones matches issues filed under any of them.
	Milestones []uint64
	// Labels matches issues that carry every one of them (with Label).
	Labels []uint64
	// Assignee matches issues assigned to them.
	Assignee *common.Address
	// MentionName matches issues that mention "@name" in the body or a
	// comment, as SearchIssues' does.
	MentionName string
	// Sort is one of IssueSorts ("" is newest).
	Sort string
}

// IssueSorts are the orders of an issue list, by Gitea's names, each with
// the number as the tie-break. Gitea's priority orders by a priority
// dForge's issues do not have: it is the newest first here.
var IssueSorts = []string{"newest", "oldest", "recentupdate", "leastupdate", "mostcomment", "leastcomment", "priority"}

var issueOrders = map[string]readdb.Order{
	"":             {Cols: []string{"i.number"}, Desc: true},
	"newest":       {Cols: []string{"i.number"}, Desc: true},
	"priority":     {Cols: []string{"i.number"}, Desc: true},
	"oldest":       {Cols: []string{"i.number"}},
	"recentupdate": {Cols: []string{"i.updated_time_ns", "i.number"}, Desc: true},
	"leastupdate":  {Cols: []string{"i.updated_time_ns", "i.number"}},
	"mostcomment":  {Cols: []string{"i.comments", "i.number"}, Desc: true},
	"leastcomment": {Cols: []string{"i.comments", "i.number"}},
}

// ValidIssueSort tells whether s is an order Issues takes.
func ValidIssueSort(s string) bool {
	_, ok := issueOrders[s]
	return ok
}

// Issues lists repo's issues (or pull requests) matching f, in f.Sort's
// order (newest first by default).
// The page is read through an index in number order and stops at its last
// row (no window over every match); a deep page skips the rows before it
// over forge_issues alone and seeks to its first row (readdb.SeekPage: the
// number is unique in a repository, so every order is total); the total
// is counted apart, without the joins (over a covering index when only
// kind and state filter), and only when the page alone cannot tell it.
//
// A page, like the total, is kept until a table it read changes
// (readdb/cache.go): a busy list is read from SQL once per change, and each
// caller gets its own copy.
func (ix *Index) Issues(ctx context.Context, repo uint64, f IssueFilter, p Page) ([]Issue, int64, error) {
	order, ok := issueOrders[f.Sort]
	if !ok {
		return nil, 0, fmt.Errorf("list issues: unknown order %q", f.Sort)
	}
	where, args := issueWhere(repo, f)
	key := readKey("issues", where+" ORDER BY "+order.SQL(), append(args[:len(args):len(args)], p.Number, p.Limit)...)
	page, err := rememberSized(ctx, ix, key, func(ctx context.Context) (issuePage, error) {
		return ix.readIssues(ctx, repo, where, order, args, p, ix.seekIssues(repo, f))
	}, issuePage.size)
	if err != nil {
		return nil, 0, err
	}
	return cloneIssues(page.issues), page.total, nil
}

// pager reads a page of a list and its total (readdb.SeekPage).
type pager func(ctx context.Context, cols, from, countFrom, where string, order readdb.Order, args []any, p Page, scan func(*sql.Rows) error) (int64, error)

// seekIssues is the pager of Issues for f: a seek to the page
// (readdb.SeekPage), with the total from the repository's counters when f
// filters by kind and state alone.
func (ix *Index) seekIssues(repo uint64, f IssueFilter) pager {
	count := ix.issueCount(repo, f)
	return func(ctx context.Context, cols, from, countFrom, where string, order readdb.Order, args []any, p Page, scan func(*sql.Rows) error) (int64, error) {
		return ix.rd.SeekPageJumped(ctx, cols, from, countFrom, where, order, args, p, count, ix.issueJump(repo, f, order), scan)
	}
}

// issueNumberBlock is how many issue numbers forge_issue_counts keeps a counter
// of (migration 00088).
const issueNumberBlock = 1024

// issueJump lets a deep page of the newest or oldest issues skip, by
// forge_issue_counts' blocks, every whole block of issue numbers before
// it: the seek then steps through at most a block's index entries, where
// it stepped through all before the page. It is nil where issueCount is
// (a filter by more than kind and state) and for other orders.
func (ix *Index) issueJump(repo uint64, f IssueFilter, order readdb.Order) readdb.Jump {
	if ix.issueCount(repo, f) == nil || len(order.Cols) != 1 || order.Cols[0] != "i.number" {
		return nil
	}
	return func(ctx context.Context, offset int, placeholder string) (string, any, int, bool, error) {
		where, args := issueCounters(repo, f)
		dir := "ASC"
		if order.Desc {
			dir = "DESC"
		}
		rows, err := ix.query(ctx, `SELECT c.block, SUM(c.issues) FROM forge_issue_counts c WHERE `+where+
			" GROUP BY c.block ORDER BY c.block "+dir, args...)
		if err != nil {
			return "", nil, 0, false, fmt.Errorf("read the issue blocks: %w", err)
		}
		defer rows.Close()
		skipped := 0
		for rows.Next() {
			var block, n int64
			if err := rows.Scan(&block, &n); err != nil {
				return "", nil, 0, false, fmt.Errorf("read the issue blocks: %w", err)
			}
			if skipped+int(n) <= offset {
				skipped += int(n)
				continue
			}
			if skipped == 0 {
				return "", nil, 0, false, nil // the page starts in the first block
			}
			if order.Desc {
				return "i.number < " + placeholder, (block + 1) * issueNumberBlock, skipped, true, nil
			}
			return "i.number >= " + placeholder, block * issueNumberBlock, skipped, true, nil
		}
		return "", nil, 0, false, rows.Err() // past the end
	}
}

// issueCount reads the total of repo's issues matching f from
// forge_issue_counts, which triggers keep with every write of
// forge_issues (migrations 00083, 00088): a sum over at most four rows
// per block of 1,024 issue numbers, where a COUNT(*) read every matching
// entry of an index and was read again after every new issue. It is nil
// when f filters by more than kind and state: those totals are counted
// (readdb.SeekPage).
func (ix *Index) issueCount(repo uint64, f IssueFilter) readdb.Count {
	rest := f
	rest.IsPull, rest.State, rest.Sort = nil, "", ""
	if !reflect.ValueOf(rest).IsZero() {
		return nil
	}
	return func(ctx context.Context) (int64, error) {
		where, args := issueCounters(repo, f)
		var n int64
		if err := ix.queryRow(ctx, `SELECT COALESCE(SUM(c.issues), 0) FROM forge_issue_counts c WHERE `+where, args...).Scan(&n); err != nil {
			return 0, fmt.Errorf("count issues: %w", err)
		}
		return n, nil
	}
}

// issueCounters picks the rows of forge_issue_counts (c) that count repo's
// issues of f's kind and state.
func issueCounters(repo uint64, f IssueFilter) (string, []any) {
	where, args := "c.repo_id = $1", []any{int64(repo)}
	if f.IsPull != nil {
		args = append(args, *f.IsPull)
		where += fmt.Sprintf(" AND c.is_pull = $%d", len(args))
	}
	if f.State != "" {
		args = append(args, f.State)
		where += fmt.Sprintf(" AND c.state = $%d", len(args))
	}
	return where, args
}

// readIssues reads a page of repo's issues matching where through page
// and fills them in.
func (ix *Index) readIssues(ctx context.Context, repo uint64, where string, order readdb.Order, args []any, p Page, page pager) (issuePage, error) {
	out := []Issue{}
	total, err := page(ctx, issueColumns, issueFrom, `forge_issues i`, where, order, args, p, func(rows *sql.Rows) error {
		is, err := scanIssue(rows)
		out = append(out, is)
		return err
	})
	if err != nil {
		return issuePage{}, fmt.Errorf("list issues: %w", err)
	}
	if err := ix.fillIssues(ctx, repo, out); err != nil {
		return issuePage{}, err
	}
	return issuePage{out, total}, nil
}

// issuePage is a page of issues and the list's total.
type issuePage struct {
	issues []Issue
	total  int64
}

func (p issuePage) size() int64 {
	n := int64(0)
	for _, is := range p.issues {
		n += int64(len(is.Title)+len(is.Body)+len(is.Author.Address)+len(is.Author.Username)) + 512
		for _, l := range is.Labels {
			n += int64(len(l.Name)+len(l.Color)+len(l.Description)) + 64
		}
		for _, u := range is.Assignees {
			n += int64(len(u.Address)+len(u.Username)) + 32
		}
	}
	return n
}

// cloneIssues copies a list and the slices of its issues, so no caller
// shares them with the cache.
func cloneIssues(list []Issue) []Issue {
	out := slices.Clone(list)
	for i := range out {
		out[i].Labels = slices.Clone(out[i].Labels)
		out[i].Assignees = slices.Clone(out[i].Assignees)
		if m := out[i].Milestone; m != nil {
			copied := *m
			out[i].Milestone = &copied
		}
	}
	return out
}

// issueWhere is the condition (over forge_issues i) and arguments of f.
// The indexes of migration 00005 serve each combination of kind and state
// in number order: (repo_id, is_pull, state, number), (repo_id, state,
// number), (repo_id, is_pull, number) and the primary key.
func issueWhere(repo uint64, f IssueFilter) (string, []any) {
	args := []any{int64(repo)}
	where := []string{"i.repo_id = $1"}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.IsPull != nil {
		where = append(where, "i.is_pull = "+arg(*f.IsPull))
	}
	if f.State != "" {
		where = append(where, "i.state = "+arg(f.State))
	}
	if f.Author != nil {
		where = append(where, "i.author = "+arg(f.Author.Hex()))
	}
	if len(f.Milestones) > 0 {
		in := make([]string, len(f.Milestones))
		for i, id := range f.Milestones {
			in[i] = arg(int64(id))
		}
		where = append(where, "i.milestone_id IN ("+strings.Join(in, ", ")+")")
	}
	labels := f.Labels
	if f.Label != 0 {
		labels = append([]uint64{f.Label}, labels...)
	}
	for _, id := range labels {
		where = append(where, "EXISTS (SELECT 1 FROM forge_issue_labels l WHERE l.repo_id = i.repo_id AND l.number = i.number AND l.label_id = "+arg(int64(id))+")")
	}
	if f.Assignee != nil {
		where = append(where, "EXISTS (SELECT 1 FROM forge_issue_assignees a WHERE a.repo_id = i.repo_id AND a.number = i.number AND a.assignee = "+arg(f.Assignee.Hex())+")")
	}
	if f.MentionName != "" {
		n := arg("%@" + likeEscape(strings.ToLower(f.MentionName)) + "%")
		where = append(where, `(lower(i.body) LIKE `+n+` ESCAPE '\' OR EXISTS (SELECT 1 FROM forge_comments c
			WHERE c.repo_id = i.repo_id AND c.number = i.number AND lower(c.body) LIKE `+n+` ESCAPE '\'))`)
	}
	if f.Query != "" {
		where = append(where, `lower(i.title) LIKE `+arg("%"+likeEscape(strings.ToLower(f.Query))+"%")+` ESCAPE '\'`)
	}
	return strings.Join(where, " AND "), args
}

// issueNumbers is the IN list of the numbers of issues, as placeholders
// after the first len(args), and the arguments with them.
func issueNumbers(issues []Issue, args []any) (string, []any) {
	var b strings.Builder
	for i, is := range issues {
		if i > 0 {
			b.WriteString(", ")
		}
		args = append(args, int64(is.Number))
		fmt.Fprintf(&b, "$%d", len(args))
	}
	return b.String(), args
}

// fillIssues reads the labels and assignees of issues of one repository:
// one query each for the whole list, by the list's numbers.
func (ix *Index) fillIssues(ctx context.Context, repo uint64, issues []Issue) error {
	if len(issues) == 0 {
		return nil
	}
	at := make(map[uint64]*Issue, len(issues))
	lo, hi := issues[0].Number, issues[0].Number
	for i := range issues {
		at[issues[i].Number] = &issues[i]
		lo, hi = min(lo, issues[i].Number), max(hi, issues[i].Number)
	}
	// A page of a list is usually a run of numbers (the default list of
	// a repository whose issues are mostly open): one range then reads it
	// all. A sparse page (a filter) names its numbers, so the read never
	// strays over the numbers between.
	cond, args := "BETWEEN $2 AND $3", []any{int64(repo), int64(lo), int64(hi)}
	if hi-lo >= 2*uint64(len(issues)) {
		var in string
		in, args = issueNumbers(issues, []any{int64(repo)})
		cond = "IN (" + in + ")"
	}
	rows, err := ix.query(ctx, `SELECT il.number, l.id, l.name, l.color, l.description, l.exclusive, l.signer, l.delegation FROM forge_issue_labels il
		JOIN forge_labels l ON l.id = il.label_id WHERE il.repo_id = $1 AND il.number `+cond+` ORDER BY il.number, l.name, l.id`, args...)
	if err != nil {
		return fmt.Errorf("read issue labels: %w", err)
	}
	for rows.Next() {
		var n int64
		var l Label
		if err := rows.Scan(&n, &l.ID, &l.Name, &l.Color, &l.Description, &l.Exclusive, &l.Signer, &l.Delegation); err != nil {
			rows.Close()
			return fmt.Errorf("read issue labels: %w", err)
		}
		if is := at[uint64(n)]; is != nil {
			is.Labels = append(is.Labels, l)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read issue labels: %w", err)
	}
	rows, err = ix.query(ctx, `SELECT ia.number, ia.assignee, `+userExpr("a")+` FROM forge_issue_assignees ia
		LEFT JOIN chain_accounts a ON a.address = ia.assignee WHERE ia.repo_id = $1 AND ia.number `+cond+` ORDER BY ia.number, ia.assignee`,
		args...)
	if err != nil {
		return fmt.Errorf("read issue assignees: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n int64
		var addr, name string
		if err := rows.Scan(&n, &addr, &name); err != nil {
			return fmt.Errorf("read issue assignees: %w", err)
		}
		if is := at[uint64(n)]; is != nil {
			is.Assignees = append(is.Assignees, user(addr, name))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read issue assignees: %w", err)
	}
	// A milestone's counts are of other issues too: read outside any
	// one issue's scope.
	return ix.fillMilestones(readdb.Unscoped(ctx), repo, issues)
}

// Comment is a comment on an issue or pull request.
type Comment struct {
	ID      uint64 `json:"id"`
	Repo    uint64 `json:"repo"`
	Number  uint64 `json:"number"`
	Author  User   `json:"author"`
	Body    string `json:"body"`
	Height  int64  `json:"height"`
	Created string `json:"created"`
	// Updated is when it was last edited (Created when never).
	Updated string `json:"updated"`
	// IsPull is set by the repository-wide reads (RepoComments, CommentByID).
	IsPull bool `json:"is_pull,omitempty"`
	// Signer and Delegation: as an Issue's.
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// Comments lists the comments of issue number, oldest first. The page is
// kept until a write to the issue's rows, or an unscoped one to a table it
// read (issueScope).
func (ix *Index) Comments(ctx context.Context, repo, number uint64, p Page) ([]Comment, int64, error) {
	return rememberPage(readdb.InScope(ctx, issueScope(repo, number)), ix, readKey("comments", "", repo, number, p.Number, p.Limit),
		func(ctx context.Context) ([]Comment, int64, error) { return ix.comments(ctx, repo, number, p) }, commentsSize)
}

// commentsSize estimates the bytes a page of comments holds, for the read
// cache.
func commentsSize(list []Comment) int64 {
	n := 64
	for _, c := range list {
		n += 256 + len(c.Body)
	}
	return int64(n)
}

// comments reads a page of an issue's comments by a seek on
// forge_comments_issue (readdb.SeekPage): a deep page of a long thread
// skips the comments before it in the index, without their bodies or
// their authors' join, and the total comes from the thread's counter when
// the page alone cannot tell it.
func (ix *Index) comments(ctx context.Context, repo, number uint64, p Page) ([]Comment, int64, error) {
	out := []Comment{}
	order := readdb.Order{Cols: []string{"c.id"}}
	total, err := ix.rd.SeekPageCounted(ctx, `c.id, c.repo_id, c.number, c.author, `+userExpr("a")+`, c.body, c.height, c.time_ns, COALESCE(c.updated_time_ns, c.time_ns), c.signer, c.delegation`,
		`forge_comments c LEFT JOIN chain_accounts a ON a.address = c.author`, `forge_comments c`, "c.repo_id = $1 AND c.number = $2 AND c.deleted = FALSE", order,
		[]any{int64(repo), int64(number)}, p, ix.commentCount(repo, number), func(rows *sql.Rows) error {
			var c Comment
			var id, r, n, ns, updatedNS int64
			var author, name string
			err := rows.Scan(&id, &r, &n, &author, &name, &c.Body, &c.Height, &ns, &updatedNS, &c.Signer, &c.Delegation)
			c.ID, c.Repo, c.Number, c.Author, c.Created = uint64(id), uint64(r), uint64(n), user(author, name), formatTime(ns)
			c.Updated = formatTime(updatedNS)
			out = append(out, c)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list comments: %w", err)
	}
	return out, total, nil
}

// CommentFilter bounds a repository's comments by time (Unix nanoseconds;
// 0 for no bound): Since is inclusive, Before exclusive, as in Gitea.
type CommentFilter struct {
	Since, Before int64
}

const repoCommentCols = `c.id, c.repo_id, c.number, c.author, ` + "%s" + `, c.body, c.height, c.time_ns, COALESCE(i.is_pull, FALSE),
	COALESCE(c.updated_time_ns, c.time_ns), c.signer, c.delegation`

func repoCommentFrom() string {
	return `forge_comments c LEFT JOIN chain_accounts a ON a.address = c.author
		LEFT JOIN forge_issues i ON i.repo_id = c.repo_id AND i.number = c.number`
}

func scanRepoComment(rows interface{ Scan(...any) error }, extra ...any) (Comment, error) {
	var c Comment
	var id, r, n, ns, updatedNS int64
	var author, name string
	err := rows.Scan(append([]any{&id, &r, &n, &author, &name, &c.Body, &c.Height, &ns, &c.IsPull, &updatedNS, &c.Signer, &c.Delegation}, extra...)...)
	c.ID, c.Repo, c.Number, c.Author, c.Created = uint64(id), uint64(r), uint64(n), user(author, name), formatTime(ns)
	c.Updated = formatTime(updatedNS)
	return c, err
}

// RepoComments lists the comments of every issue and pull request of repo
// within f, oldest first.
func (ix *Index) RepoComments(ctx context.Context, repo uint64, f CommentFilter, p Page) ([]Comment, int64, error) {
	out := []Comment{}
	where, args := "c.repo_id = $1 AND c.deleted = FALSE", []any{int64(repo)}
	if f.Since > 0 {
		args = append(args, f.Since)
		where += fmt.Sprintf(" AND c.time_ns >= $%d", len(args))
	}
	if f.Before > 0 {
		args = append(args, f.Before)
		where += fmt.Sprintf(" AND c.time_ns < $%d", len(args))
	}
	// A seek in id order (readdb.SeekPage): a deep page of a repository's
	// many comments skips the ones before it without the joins. The total
	// of all of them is the repository's counter; one bounded in time is
	// counted.
	var count readdb.Count
	if f == (CommentFilter{}) {
		count = ix.commentCount(repo, 0)
	}
	total, err := ix.rd.SeekPageCounted(ctx, fmt.Sprintf(repoCommentCols, userExpr("a")), repoCommentFrom(), "forge_comments c", where,
		readdb.Order{Cols: []string{"c.id"}}, args, p, count, func(rows *sql.Rows) error {
			c, err := scanRepoComment(rows)
			out = append(out, c)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list repository comments: %w", err)
	}
	return out, total, nil
}

// commentCount reads from forge_comment_counts, which triggers keep with
// every write of forge_comments (migration 00085), how many comments
// issue number of repo has, or the whole repository when number is 0. A
// thread without comments has no counter.
func (ix *Index) commentCount(repo, number uint64) readdb.Count {
	return func(ctx context.Context) (int64, error) {
		var n int64
		err := ix.queryRow(ctx, `SELECT comments FROM forge_comment_counts WHERE repo_id = $1 AND number = $2`, int64(repo), int64(number)).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		if err != nil {
			return 0, fmt.Errorf("count comments: %w", err)
		}
		return n, nil
	}
}

// CommentByID reads comment id of repo; a missing error when repo has none.
func (ix *Index) CommentByID(ctx context.Context, repo, id uint64) (Comment, error) {
	row := ix.queryRow(ctx, "SELECT "+fmt.Sprintf(repoCommentCols, userExpr("a"))+" FROM "+repoCommentFrom()+
		" WHERE c.id = $1 AND c.repo_id = $2 AND c.deleted = FALSE", int64(id), int64(repo))
	c, err := scanRepoComment(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Comment{}, notFound("there is no comment %d", id)
	}
	if err != nil {
		return Comment{}, fmt.Errorf("read comment %d: %w", id, err)
	}
	return c, nil
}
