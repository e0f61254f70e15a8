package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Search across the node: the accounts it knows and the issues of every
// repository a viewer may read. Matching is a case-insensitive substring
// (LIKE over lower(), its wildcards escaped), the same on SQLite and
// PostgreSQL.

// Person is an account the chain knows, with the profile its owner keeps
// on this node (zero when they never signed in here).
type Person struct {
	User
	ID          int64 // the account's user id (UserID): the same on every node
	FullName    string
	Description string
	Location    string
	Website     string
	Created     time.Time // the time of the block that created the account on the chain
}

// personName is an account's name as projected: the claimed one, else its
// default.
const personName = `COALESCE(a.username, a.default_name)`

// The profile is node-local (store's users table, lower-case addresses);
// the chain's accounts have EIP-55 addresses. It is joined rather than
// read per row so the full name can match too. The creation time is the
// block's (the genesis time for accounts of the genesis state).
const personFrom = `chain_accounts a LEFT JOIN users u ON u.address = lower(a.address)
	LEFT JOIN chain_blocks b ON b.height = a.created_height`

const personColumns = `a.address, COALESCE(a.id, 0), ` + personName + `, COALESCE(u.full_name, ''), COALESCE(u.description, ''),
	COALESCE(u.location, ''), COALESCE(u.website, ''),
	COALESCE(b.time_ns, (SELECT genesis_time_ns FROM chain_index WHERE id = 1), 0)`

func scanPerson(row interface{ Scan(...any) error }, extra ...any) (Person, error) {
	var pr Person
	var addr, name string
	var createdNS int64
	if err := row.Scan(append([]any{&addr, &pr.ID, &name, &pr.FullName, &pr.Description, &pr.Location, &pr.Website, &createdNS}, extra...)...); err != nil {
		return Person{}, err
	}
	pr.User = user(addr, name)
	if createdNS != 0 {
		pr.Created = time.Unix(0, createdNS).UTC()
	}
	return pr, nil
}

// PersonByAddress reads the account addr as SearchPeople lists it; a
// missing error when the chain has no such account.
func (ix *Index) PersonByAddress(ctx context.Context, addr common.Address) (Person, error) {
	pr, err := scanPerson(ix.queryRow(ctx, `SELECT `+personColumns+` FROM `+personFrom+` WHERE a.address = $1`, addr.Hex()))
	if errors.Is(err, sql.ErrNoRows) {
		return Person{}, notFound("the chain has no account %s", addr.Hex())
	}
	if err != nil {
		return Person{}, fmt.Errorf("read account %s: %w", addr.Hex(), err)
	}
	return pr, nil
}

// SearchPeople lists the accounts whose name or node-local full name holds
// q in any case, and whose user id is uid when uid is not 0: the one
// named q exactly first, then by name. An empty q lists everyone. Profiles
// change outside the projection, so the answer is not kept in the read
// cache.
func (ix *Index) SearchPeople(ctx context.Context, q string, uid int64, p Page) ([]Person, int64, error) {
	where, order := "", `lower(`+personName+`), a.address`
	var match []any // the arguments of where
	var conds []string
	if uid != 0 {
		match = append(match, uid)
		conds = append(conds, fmt.Sprintf(`a.id = $%d`, len(match)))
	}
	if q = strings.ToLower(strings.TrimSpace(q)); q != "" {
		match = append(match, "%"+likeEscape(q)+"%")
		n := len(match)
		conds = append(conds, fmt.Sprintf(`(lower(`+personName+`) LIKE $%d ESCAPE '\' OR lower(u.full_name) LIKE $%d ESCAPE '\')`, n, n))
	}
	if len(conds) > 0 {
		where = ` WHERE ` + strings.Join(conds, " AND ")
	}
	args := append([]any{}, match...) // of the page query
	if q != "" {
		args = append(args, q)
		order = fmt.Sprintf(`CASE WHEN lower(`+personName+`) = $%d THEN 0 ELSE 1 END, `, len(args)) + order
	}
	n := len(args)
	rows, err := ix.query(ctx, fmt.Sprintf(`SELECT %s, COUNT(*) OVER () FROM %s%s ORDER BY %s LIMIT $%d OFFSET $%d`,
		personColumns, personFrom, where, order, n+1, n+2), append(args, p.Limit, p.Offset())...)
	if err != nil {
		return nil, 0, fmt.Errorf("search people: %w", err)
	}
	defer rows.Close()
	out := []Person{}
	total := int64(-1)
	for rows.Next() {
		pr, err := scanPerson(rows, &total)
		if err != nil {
			return nil, 0, fmt.Errorf("search people: %w", err)
		}
		out = append(out, pr)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("search people: %w", err)
	}
	rows.Close() // SQLite's read may hold the connection the count needs
	if total >= 0 || p.Number <= 1 {
		return out, max(total, 0), nil
	}
	// Past the last page: the total alone, counted without the order's
	// exact-name argument.
	if err := ix.queryRow(ctx, `SELECT COUNT(*) FROM `+personFrom+where, match...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count people: %w", err)
	}
	return out, total, nil
}

// IssueSearch narrows a search of issues across repositories. Viewer
// reads the issues of public repositories and of the private ones they
// own or collaborate on; the zero address, public ones only.
type IssueSearch struct {
	Viewer common.Address
	Query  string // a substring of the title or body, any case
	State  string // "open", "closed" or "" for both
	IsPull *bool
	// Relations to one account (the zero address: no condition), Gitea's
	// created, assigned, review_requested, reviewed and mentioned: issues
	// they opened, are assigned, are asked to review (open requests),
	// reviewed, or are mentioned in (MentionName, "@name" in the body or a
	// comment, as typed: a longer name that starts with it matches too).
	Author, Assignee, ReviewRequested, Reviewer common.Address
	MentionName                                 string
}

// The issues joined with their repository, for its privacy; the count
// needs no more.
const (
	searchIssueFrom  = `forge_issues i JOIN forge_repos r ON r.id = i.repo_id LEFT JOIN chain_accounts ua ON ua.address = i.author`
	searchIssueCount = `forge_issues i JOIN forge_repos r ON r.id = i.repo_id`
)

// SearchIssues lists the issues (and pull requests) f selects across the
// repositories f.Viewer may read, the most recently updated first. Each
// issue names its repository (Issue.Repo); its labels and assignees are
// filled as Issues fills them. A page is kept until the projection
// changes, as Issues' are: who may read what is projected too.
func (ix *Index) SearchIssues(ctx context.Context, f IssueSearch, p Page) ([]Issue, int64, error) {
	where, args := issueSearchWhere(f)
	key := readKey("issue-search", where, append(args[:len(args):len(args)], p.Number, p.Limit)...)
	page, err := rememberSized(ctx, ix, key, func(ctx context.Context) (issuePage, error) {
		out := []Issue{}
		total, err := ix.listPage(ctx, issueColumns, searchIssueFrom, searchIssueCount, where,
			"i.updated_time_ns DESC, i.repo_id DESC, i.number DESC", args, p, func(rows *sql.Rows) error {
				is, err := scanIssue(rows)
				out = append(out, is)
				return err
			})
		if err != nil {
			return issuePage{}, fmt.Errorf("search issues: %w", err)
		}
		if err := ix.fillIssuesOfRepos(ctx, out); err != nil {
			return issuePage{}, err
		}
		return issuePage{out, total}, nil
	}, issuePage.size)
	if err != nil {
		return nil, 0, err
	}
	return cloneIssues(page.issues), page.total, nil
}

// issueSearchWhere is the condition (over forge_issues i joined with
// forge_repos r) and arguments of f.
func issueSearchWhere(f IssueSearch) (string, []any) {
	args := []any{f.Viewer.Hex()}
	where := []string{`(r.private = FALSE OR r.owner = $1 OR EXISTS (SELECT 1 FROM forge_collaborators c WHERE c.repo_id = r.id AND c.user_address = $1))`}
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
	if q := strings.ToLower(strings.TrimSpace(f.Query)); q != "" {
		n := arg("%" + likeEscape(q) + "%")
		where = append(where, `(lower(i.title) LIKE `+n+` ESCAPE '\' OR lower(i.body) LIKE `+n+` ESCAPE '\')`)
	}
	where = append(where, relationWhere(f, arg)...)
	return strings.Join(where, " AND "), args
}

// relationWhere is the conditions of f's relations to one account. Each
// starts from the account's own rows (an index on the account), so a
// user's few issues are found without reading every issue.
func relationWhere(f IssueSearch, arg func(any) string) []string {
	var where []string
	zero := common.Address{}
	if f.Author != zero {
		where = append(where, "i.author = "+arg(f.Author.Hex()))
	}
	for _, rel := range []struct {
		who   common.Address
		table string
	}{
		{f.Assignee, "SELECT repo_id, number FROM forge_issue_assignees WHERE assignee = "},
		{f.ReviewRequested, "SELECT repo_id, number FROM forge_review_requests WHERE reviewer = "},
		{f.Reviewer, "SELECT repo_id, number FROM forge_reviews WHERE author = "},
	} {
		if rel.who != zero {
			where = append(where, "(i.repo_id, i.number) IN ("+rel.table+arg(rel.who.Hex())+")")
		}
	}
	if f.MentionName != "" {
		n := arg("%@" + likeEscape(strings.ToLower(f.MentionName)) + "%")
		where = append(where, `(lower(i.body) LIKE `+n+` ESCAPE '\' OR (i.repo_id, i.number) IN
			(SELECT c.repo_id, c.number FROM forge_comments c WHERE lower(c.body) LIKE `+n+` ESCAPE '\'))`)
	}
	return where
}

// fillIssuesOfRepos is fillIssues for a list that spans repositories: one
// fill per repository, in the list's order.
func (ix *Index) fillIssuesOfRepos(ctx context.Context, issues []Issue) error {
	byRepo := map[uint64][]int{}
	var repos []uint64
	for i, is := range issues {
		if _, seen := byRepo[is.Repo]; !seen {
			repos = append(repos, is.Repo)
		}
		byRepo[is.Repo] = append(byRepo[is.Repo], i)
	}
	for _, repo := range repos {
		at := byRepo[repo]
		group := make([]Issue, len(at))
		for j, i := range at {
			group[j] = issues[i]
		}
		if err := ix.fillIssues(ctx, repo, group); err != nil {
			return err
		}
		for j, i := range at {
			issues[i] = group[j]
		}
	}
	return nil
}
