package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
)

// The forge reads. They return what is projected, private rows included:
// the forge service decides who may see them (Permission).

// User is an address with the username the chain gives it.
type User struct {
	Address  string `json:"address"`
	Username string `json:"username"`
}

// Repo is a projected repository.
type Repo struct {
	ID                uint64   `json:"id"`
	Owner             User     `json:"owner"`
	Name              string   `json:"name"`
	Description       string   `json:"description"`
	DefaultBranch     string   `json:"defaultBranch"`
	ProtectedBranches []string `json:"protectedBranches"`
	Private           bool     `json:"private"`
	ForkOf            uint64   `json:"forkOf,omitempty"`
	Stars             uint64   `json:"stars"`
	Forks             uint64   `json:"forks"`
	Watchers          uint64   `json:"watchers"`
	OpenIssues        uint64   `json:"openIssues"`
	OpenPulls         uint64   `json:"openPulls"`
	CreatedHeight     int64    `json:"createdHeight"`
	Created           string   `json:"created"`
	UpdatedHeight     int64    `json:"updatedHeight"`
	Updated           string   `json:"updated"`
}

// OwnerAddress is the owner as an address.
func (r Repo) OwnerAddress() common.Address { return common.HexToAddress(r.Owner.Address) }

// userExpr gives a user's name from chain_accounts joined as alias a.
func userExpr(a string) string { return "COALESCE(" + a + ".username, " + a + ".default_name, '')" }

// user builds a User from an address and the joined name ("" when the
// chain never touched the account: its default name).
func user(addr, name string) User {
	if name == "" && common.IsHexAddress(addr) {
		name = names.Default(common.HexToAddress(addr))
	}
	return User{Address: addr, Username: name}
}

const repoColumns = `r.id, r.owner, ` + "COALESCE(oa.username, oa.default_name, '')" + `, r.name, r.description, r.default_branch,
	r.protected_branches, r.private, r.fork_of, r.stars, r.forks, r.watchers, r.open_issues, r.open_pulls,
	r.created_height, r.created_time_ns, r.updated_height, r.updated_time_ns`

const repoFrom = `forge_repos r LEFT JOIN chain_accounts oa ON oa.address = r.owner`

func scanRepo(row scanner, extra ...any) (Repo, error) {
	var r Repo
	var owner, ownerName, protected string
	var id, stars, forks, watchers, openIssues, openPulls, createdNS, updatedNS int64
	var forkOf sql.NullInt64
	err := row.Scan(append([]any{&id, &owner, &ownerName, &r.Name, &r.Description, &r.DefaultBranch, &protected, &r.Private,
		&forkOf, &stars, &forks, &watchers, &openIssues, &openPulls, &r.CreatedHeight, &createdNS, &r.UpdatedHeight, &updatedNS}, extra...)...)
	if err != nil {
		return r, err
	}
	r.ID, r.Owner = uint64(id), user(owner, ownerName)
	r.Stars, r.Forks, r.Watchers, r.OpenIssues, r.OpenPulls = uint64(stars), uint64(forks), uint64(watchers), uint64(openIssues), uint64(openPulls)
	r.ForkOf = uint64(forkOf.Int64)
	r.Created, r.Updated = formatTime(createdNS), formatTime(updatedNS)
	if err := json.Unmarshal([]byte(protected), &r.ProtectedBranches); err != nil {
		return r, fmt.Errorf("decode protected branches of repository %d: %w", r.ID, err)
	}
	return r, nil
}

// RepoByID reads a repository.
func (ix *Index) RepoByID(ctx context.Context, id uint64) (Repo, error) {
	r, err := remember(ix, readKey("repo-by-id", "", id), func() (Repo, error) {
		return scanRepo(ix.queryRow(ctx, `SELECT `+repoColumns+` FROM `+repoFrom+` WHERE r.id = $1`, int64(id)))
	})
	r.ProtectedBranches = slices.Clone(r.ProtectedBranches)
	if errors.Is(err, sql.ErrNoRows) {
		return Repo{}, notFound("repository %d does not exist", id)
	}
	if err != nil {
		return Repo{}, fmt.Errorf("read repository %d: %w", id, err)
	}
	return r, nil
}

// RepoByName finds owner's repository called name, in any case. Should a
// public and a private one share the name (the public one made or moved
// there on another node, or transferred in by someone else), the private
// one wins on the node that holds it: its owner pushes to owner/name
// believing it private, and the public one would publish that push. The
// public one stays reachable by id, and by name on every other node.
func (ix *Index) RepoByName(ctx context.Context, owner common.Address, name string) (Repo, error) {
	lower := strings.ToLower(name)
	r, err := remember(ix, readKey("repo-by-name", "", owner.Hex(), lower), func() (Repo, error) {
		return scanRepo(ix.queryRow(ctx, `SELECT `+repoColumns+` FROM `+repoFrom+`
		WHERE r.owner = $1 AND r.lower_name = $2 ORDER BY r.private DESC LIMIT 1`, owner.Hex(), lower))
	})
	r.ProtectedBranches = slices.Clone(r.ProtectedBranches)
	if errors.Is(err, sql.ErrNoRows) {
		return Repo{}, notFound("repository %s does not exist", name)
	}
	if err != nil {
		return Repo{}, fmt.Errorf("read repository %s: %w", name, err)
	}
	return r, nil
}

// NameUsed reports whether owner has a repository called name (in any
// case) that is private (private true) or public (private false), other
// than the repository except (0: none).
func (ix *Index) NameUsed(ctx context.Context, owner common.Address, name string, private bool, except uint64) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_repos WHERE owner = $1 AND lower_name = $2 AND private = $3 AND id <> $4`,
		owner.Hex(), strings.ToLower(name), private, int64(except)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look up repository name %s: %w", name, err)
	}
	return n > 0, nil
}

// Permission is what u may do in r, by the forge module's own rule
// (forge.PermissionOf) over the projected collaborators.
func (ix *Index) Permission(ctx context.Context, r Repo, u common.Address) (forge.Perm, error) {
	perm, err := remember(ix, readKey("collaborator", "", r.ID, u.Hex()), func() (string, error) {
		var perm string
		err := ix.queryRow(ctx, `SELECT permission FROM forge_collaborators WHERE repo_id = $1 AND user_address = $2`,
			int64(r.ID), u.Hex()).Scan(&perm)
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}
		return perm, err
	})
	if err != nil {
		return forge.PermNone, fmt.Errorf("read permission on repository %d: %w", r.ID, err)
	}
	collab, _ := forge.ParsePerm(perm)
	return forge.PermissionOf(forge.Repo{Owner: r.OwnerAddress(), Private: r.Private}, u, collab), nil
}

// RepoFilter narrows a repository list. Viewer sees public repositories
// and the private ones they own or collaborate on; the zero address sees
// public ones only.
type RepoFilter struct {
	Viewer common.Address
	Owner  *common.Address
	Query  string // a substring of the name or description, any case
	// Sort is "updated" (default), "created", "stars", "forks" or "name".
	Sort string
}

var repoSorts = map[string]string{
	"": "r.updated_height DESC, r.id DESC", "updated": "r.updated_height DESC, r.id DESC", "created": "r.id DESC",
	"stars": "r.stars DESC, r.id DESC", "forks": "r.forks DESC, r.id DESC", "name": "r.lower_name, r.id",
}

// Repos lists the repositories f selects that f.Viewer may see.
func (ix *Index) Repos(ctx context.Context, f RepoFilter, p Page) ([]Repo, int64, error) {
	order, ok := repoSorts[f.Sort]
	if !ok {
		return nil, 0, fmt.Errorf("list repositories: unknown sort %q", f.Sort)
	}
	args := []any{f.Viewer.Hex()}
	where := []string{`(r.private = FALSE OR r.owner = $1 OR EXISTS (SELECT 1 FROM forge_collaborators c WHERE c.repo_id = r.id AND c.user_address = $1))`}
	if f.Owner != nil {
		args = append(args, f.Owner.Hex())
		where = append(where, fmt.Sprintf("r.owner = $%d", len(args)))
	}
	if f.Query != "" {
		args = append(args, "%"+likeEscape(strings.ToLower(f.Query))+"%")
		where = append(where, fmt.Sprintf(`(r.lower_name LIKE $%d ESCAPE '\' OR lower(r.description) LIKE $%d ESCAPE '\')`, len(args), len(args)))
	}
	out := []Repo{}
	total, err := ix.page(ctx, repoColumns, repoFrom, strings.Join(where, " AND "), order, args, p, func(rows *sql.Rows, total *int64) error {
		r, err := scanRepo(rows, total)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list repositories: %w", err)
	}
	return out, total, nil
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Label is a repository label.
type Label struct {
	ID          uint64 `json:"id"`
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description"`
}

// Issue is a projected issue or pull request conversation.
type Issue struct {
	Repo          uint64  `json:"repo"`
	Number        uint64  `json:"number"`
	IsPull        bool    `json:"isPull"`
	Author        User    `json:"author"`
	Title         string  `json:"title"`
	Body          string  `json:"body"`
	State         string  `json:"state"`
	StateReason   string  `json:"stateReason"`
	Comments      uint64  `json:"comments"`
	Labels        []Label `json:"labels"`
	Assignees     []User  `json:"assignees"`
	CreatedHeight int64   `json:"createdHeight"`
	Created       string  `json:"created"`
	UpdatedHeight int64   `json:"updatedHeight"`
	Updated       string  `json:"updated"`
	Closed        string  `json:"closed,omitempty"`
}

const issueColumns = `i.repo_id, i.number, i.is_pull, i.author, ` + "COALESCE(ua.username, ua.default_name, '')" + `, i.title, i.body,
	i.state, i.state_reason, i.comments, i.created_height, i.created_time_ns, i.updated_height, i.updated_time_ns, i.closed_time_ns`

const issueFrom = `forge_issues i LEFT JOIN chain_accounts ua ON ua.address = i.author`

func scanIssue(row scanner, extra ...any) (Issue, error) {
	var is Issue
	var repo, number, comments, createdNS, updatedNS int64
	var author, authorName string
	var closedNS sql.NullInt64
	err := row.Scan(append([]any{&repo, &number, &is.IsPull, &author, &authorName, &is.Title, &is.Body, &is.State, &is.StateReason,
		&comments, &is.CreatedHeight, &createdNS, &is.UpdatedHeight, &updatedNS, &closedNS}, extra...)...)
	is.Repo, is.Number, is.Comments, is.Author = uint64(repo), uint64(number), uint64(comments), user(author, authorName)
	is.Created, is.Updated = formatTime(createdNS), formatTime(updatedNS)
	if closedNS.Valid {
		is.Closed = formatTime(closedNS.Int64)
	}
	is.Labels, is.Assignees = []Label{}, []User{}
	return is, err
}

// Issue reads issue (or pull request) number of repository repo.
func (ix *Index) Issue(ctx context.Context, repo, number uint64) (Issue, error) {
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

// IssueFilter narrows an issue list; zero fields match everything.
type IssueFilter struct {
	IsPull *bool
	State  string // "open", "closed" or "" for both
	Author *common.Address
	Label  uint64
	Query  string // a substring of the title, any case
}

// Issues lists repo's issues (or pull requests) matching f, newest first.
// The page is read through an index in number order and stops at its last
// row (no window over every match); the total is counted apart, without
// the joins (over a covering index when only kind and state filter), and
// only when the page alone cannot tell it.
//
// A page, like the total, is kept until the projection changes
// (readcache.go): a busy list is read from SQL once per change, and each
// caller gets its own copy.
func (ix *Index) Issues(ctx context.Context, repo uint64, f IssueFilter, p Page) ([]Issue, int64, error) {
	where, args := issueWhere(repo, f)
	key := readKey("issues", where, append(args[:len(args):len(args)], p.Number, p.Limit)...)
	page, err := rememberSized(ix, key, func() (issuePage, error) {
		out := []Issue{}
		total, err := ix.listPage(ctx, issueColumns, issueFrom, `forge_issues i`, where, "i.number DESC", args, p, func(rows *sql.Rows) error {
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
	}, issuePage.size)
	if err != nil {
		return nil, 0, err
	}
	return cloneIssues(page.issues), page.total, nil
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
	if f.Label != 0 {
		where = append(where, "EXISTS (SELECT 1 FROM forge_issue_labels l WHERE l.repo_id = i.repo_id AND l.number = i.number AND l.label_id = "+arg(int64(f.Label))+")")
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
	rows, err := ix.query(ctx, `SELECT il.number, l.id, l.name, l.color, l.description FROM forge_issue_labels il
		JOIN forge_labels l ON l.id = il.label_id WHERE il.repo_id = $1 AND il.number `+cond+` ORDER BY il.number, l.name, l.id`, args...)
	if err != nil {
		return fmt.Errorf("read issue labels: %w", err)
	}
	for rows.Next() {
		var n int64
		var l Label
		if err := rows.Scan(&n, &l.ID, &l.Name, &l.Color, &l.Description); err != nil {
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
	return rows.Err()
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
}

// Comments lists the comments of issue number, oldest first.
func (ix *Index) Comments(ctx context.Context, repo, number uint64, p Page) ([]Comment, int64, error) {
	out := []Comment{}
	total, err := ix.page(ctx, `c.id, c.repo_id, c.number, c.author, `+userExpr("a")+`, c.body, c.height, c.time_ns`,
		`forge_comments c LEFT JOIN chain_accounts a ON a.address = c.author`, "c.repo_id = $1 AND c.number = $2", "c.id",
		[]any{int64(repo), int64(number)}, p, func(rows *sql.Rows, total *int64) error {
			var c Comment
			var id, r, n, ns int64
			var author, name string
			err := rows.Scan(&id, &r, &n, &author, &name, &c.Body, &c.Height, &ns, total)
			c.ID, c.Repo, c.Number, c.Author, c.Created = uint64(id), uint64(r), uint64(n), user(author, name), formatTime(ns)
			out = append(out, c)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list comments: %w", err)
	}
	return out, total, nil
}

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
		pr.Issue = at[uint64(n)]
		out[uint64(n)] = pr
	}
	return out, rows.Err()
}

const pullColumns = `p.head_repo_id, p.head_branch, p.base_branch, p.head_sha, p.base_sha, p.merged,
	p.merge_sha, p.merge_style, p.merged_by, ` + "COALESCE(a.username, a.default_name, '')" + `, p.merged_time_ns`

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
// their inline comments.
func (ix *Index) Reviews(ctx context.Context, repo, number uint64) ([]Review, error) {
	rows, err := ix.query(ctx, `SELECT r.id, r.author, `+userExpr("a")+`, r.state, r.body, r.commit_sha, r.height, r.time_ns
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
		if err := rows.Scan(&id, &author, &name, &rv.State, &rv.Body, &rv.CommitSHA, &rv.Height, &ns); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list reviews: %w", err)
		}
		rv.ID, rv.Author, rv.Submitted, rv.Comments = uint64(id), user(author, name), formatTime(ns), []ReviewComment{}
		at[rv.ID] = len(out)
		out = append(out, rv)
	}
	rows.Close()
	comments, err := ix.ReviewComments(ctx, repo, number)
	if err != nil {
		return nil, err
	}
	for _, c := range comments {
		if i, ok := at[c.ReviewID]; ok {
			out[i].Comments = append(out[i].Comments, c)
		}
	}
	return out, nil
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
	return out, rows.Err()
}

// Labels lists a repository's labels by name.
func (ix *Index) Labels(ctx context.Context, repo uint64) ([]Label, error) {
	rows, err := ix.query(ctx, `SELECT id, name, color, description FROM forge_labels WHERE repo_id = $1 ORDER BY name, id`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("list labels: %w", err)
	}
	defer rows.Close()
	out := []Label{}
	for rows.Next() {
		var l Label
		if err := rows.Scan(&l.ID, &l.Name, &l.Color, &l.Description); err != nil {
			return nil, fmt.Errorf("list labels: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// Collaborator is a user's permission on a repository.
type Collaborator struct {
	User       User   `json:"user"`
	Permission string `json:"permission"`
}

// Collaborators lists a repository's collaborators by address.
func (ix *Index) Collaborators(ctx context.Context, repo uint64) ([]Collaborator, error) {
	rows, err := ix.query(ctx, `SELECT c.user_address, `+userExpr("a")+`, c.permission FROM forge_collaborators c
		LEFT JOIN chain_accounts a ON a.address = c.user_address WHERE c.repo_id = $1 ORDER BY c.user_address`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("list collaborators: %w", err)
	}
	defer rows.Close()
	out := []Collaborator{}
	for rows.Next() {
		var addr, name string
		var c Collaborator
		if err := rows.Scan(&addr, &name, &c.Permission); err != nil {
			return nil, fmt.Errorf("list collaborators: %w", err)
		}
		c.User = user(addr, name)
		out = append(out, c)
	}
	return out, rows.Err()
}

// Stargazers (table forge_stars) or watchers (forge_watches) of a
// repository, newest first.
func (ix *Index) flagUsers(ctx context.Context, table string, repo uint64, p Page) ([]User, int64, error) {
	out := []User{}
	total, err := ix.page(ctx, `f.user_address, `+userExpr("a"), table+` f LEFT JOIN chain_accounts a ON a.address = f.user_address`,
		"f.repo_id = $1", "f.height DESC, f.user_address", []any{int64(repo)}, p, func(rows *sql.Rows, total *int64) error {
			var addr, name string
			err := rows.Scan(&addr, &name, total)
			out = append(out, user(addr, name))
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", table, err)
	}
	return out, total, nil
}

// Stargazers lists who starred a repository, newest first.
func (ix *Index) Stargazers(ctx context.Context, repo uint64, p Page) ([]User, int64, error) {
	return ix.flagUsers(ctx, "forge_stars", repo, p)
}

// Watchers lists who watches a repository, newest first.
func (ix *Index) Watchers(ctx context.Context, repo uint64, p Page) ([]User, int64, error) {
	return ix.flagUsers(ctx, "forge_watches", repo, p)
}

// Starred reports whether u starred repo, and Watching whether u watches it.
func (ix *Index) Starred(ctx context.Context, repo uint64, u common.Address) (bool, error) {
	return ix.hasFlag(ctx, "forge_stars", repo, u)
}

// Watching reports whether u watches repo.
func (ix *Index) Watching(ctx context.Context, repo uint64, u common.Address) (bool, error) {
	return ix.hasFlag(ctx, "forge_watches", repo, u)
}

func (ix *Index) hasFlag(ctx context.Context, table string, repo uint64, u common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE repo_id = $1 AND user_address = $2`, int64(repo), u.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", table, err)
	}
	return n > 0, nil
}

// RefUpdate is a projected ref update.
type RefUpdate struct {
	ID     uint64 `json:"id"`
	Ref    string `json:"ref"`
	Old    string `json:"old"`
	New    string `json:"new"`
	Forced bool   `json:"forced"`
	Pusher User   `json:"pusher"`
	Height int64  `json:"height"`
	Time   string `json:"time"`
}

// RefUpdates lists a repository's ref updates, newest first.
func (ix *Index) RefUpdates(ctx context.Context, repo uint64, p Page) ([]RefUpdate, int64, error) {
	out := []RefUpdate{}
	total, err := ix.page(ctx, `u.id, u.ref, u.old_sha, u.new_sha, u.forced, u.pusher, `+userExpr("a")+`, u.height, u.time_ns`,
		`forge_ref_updates u LEFT JOIN chain_accounts a ON a.address = u.pusher`, "u.repo_id = $1", "u.id DESC",
		[]any{int64(repo)}, p, func(rows *sql.Rows, total *int64) error {
			var u RefUpdate
			var id, ns int64
			var pusher, name string
			err := rows.Scan(&id, &u.Ref, &u.Old, &u.New, &u.Forced, &pusher, &name, &u.Height, &ns, total)
			u.ID, u.Pusher, u.Time = uint64(id), user(pusher, name), formatTime(ns)
			out = append(out, u)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list ref updates: %w", err)
	}
	return out, total, nil
}
