package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
)

// The dashboard's reads that the other lists do not already make: a
// user's repositories by any relation, and the combined commit status of
// several heads at once. Its issue sections are SearchIssues with a
// relation (search_read.go), the same query its "see all" links run.

// repoVisible is the condition a repository r must meet for the viewer at
// $1 to see it in a list, as Repos and SearchIssues decide.
const repoVisible = `(r.private = FALSE OR r.owner = $1 OR EXISTS (SELECT 1 FROM forge_collaborators c WHERE c.repo_id = r.id AND c.user_address = $1))`

// userRepoWhere is the condition of the repositories the account at $2
// owns, collaborates on, or whose owning organization it is a member of.
// The ids come from the account's own rows (owner, collaborator and team
// member indexes), so the read sorts a user's few repositories rather than
// scanning every repository in order until ten match.
const userRepoWhere = repoVisible + ` AND r.id IN (SELECT o1.id FROM forge_repos o1 WHERE o1.owner = $2
	UNION SELECT c2.repo_id FROM forge_collaborators c2 WHERE c2.user_address = $2
	UNION SELECT o3.id FROM forge_team_members m JOIN forge_orgs og ON og.id = m.org_id JOIN forge_repos o3 ON o3.owner = og.address
		WHERE m.user_address = $2)`

type repoPage struct {
	repos []Repo
	total int64
}

func (p repoPage) size() int64 {
	n := int64(0)
	for _, r := range p.repos {
		n += int64(len(r.Name)+len(r.Description)+len(r.Website)) + 512
	}
	return n
}

// UserRepos lists the repositories u owns, collaborates on, or holds
// through an organization they belong to, that viewer may see (see
// RepoFilter), the most recently updated first. A page is kept until the
// projection changes: every relation it reads is projected.
func (ix *Index) UserRepos(ctx context.Context, u, viewer common.Address, p Page) ([]Repo, int64, error) {
	args := []any{viewer.Hex(), u.Hex()}
	page, err := rememberSized(ctx, ix, readKey("user-repos", "", viewer.Hex(), u.Hex(), p.Number, p.Limit), func(ctx context.Context) (repoPage, error) {
		out := []Repo{}
		total, err := ix.listPage(ctx, repoColumns, repoFrom, "forge_repos r", userRepoWhere, "r.updated_height DESC, r.id DESC", args, p,
			func(rows *sql.Rows) error {
				r, err := scanRepo(rows)
				out = append(out, r)
				return err
			})
		return repoPage{out, total}, err
	}, repoPage.size)
	if err != nil {
		return nil, 0, fmt.Errorf("list repositories of %s: %w", u.Hex(), err)
	}
	out := slices.Clone(page.repos)
	for i := range out {
		out[i].ProtectedBranches, out[i].Topics = slices.Clone(out[i].ProtectedBranches), slices.Clone(out[i].Topics)
	}
	return out, page.total, nil
}

// PullChecks is a pull request's head, the latest status of each context
// of it, in context order (at most MaxLatestStatuses), and its approvals:
// the reviewers whose latest verdict approves and is not dismissed.
type PullChecks struct {
	HeadSHA   string
	Statuses  []CommitStatus
	Approvals int
}

// IssueKey names an issue or pull request.
type IssueKey struct {
	Repo, Number uint64
}

// ChecksOf reads the heads of the pull requests among issues, their
// latest statuses and their approvals, in three queries for all of them (the dashboard shows a
// page of pull requests' checks at once). Kept until the projection
// changes, as statuses and heads are projected.
func (ix *Index) ChecksOf(ctx context.Context, issues []Issue) (map[IssueKey]PullChecks, error) {
	var args []any
	for _, is := range issues {
		if is.IsPull {
			args = append(args, int64(is.Repo), int64(is.Number))
		}
	}
	if len(args) == 0 {
		return map[IssueKey]PullChecks{}, nil
	}
	got, err := remember(ctx, ix, readKey("pull-checks", "", args...), func(ctx context.Context) (map[IssueKey]PullChecks, error) {
		out, err := ix.readChecks(ctx, pullPairs("p", len(args)/2), args)
		if err != nil {
			return nil, err
		}
		return out, ix.readApprovals(ctx, pullPairs("v", len(args)/2), args, out)
	})
	if err != nil {
		return nil, fmt.Errorf("read checks of pull requests: %w", err)
	}
	return got, nil
}

// pullPairs is the condition that alias is one of n pull requests, given
// as 2n arguments (repository, number).
func pullPairs(alias string, n int) string {
	conds := make([]string, n)
	for i := range n {
		conds[i] = fmt.Sprintf("(%s.repo_id = $%d AND %s.number = $%d)", alias, 2*i+1, alias, 2*i+2)
	}
	return strings.Join(conds, " OR ")
}

// readApprovals counts each pull request's approvals into out, as the
// forge module keeps its approvers: the latest verdict (approve or request
// changes) of each reviewer, when it approves and is not dismissed.
func (ix *Index) readApprovals(ctx context.Context, where string, args []any, out map[IssueKey]PullChecks) error {
	rows, err := ix.query(ctx, `SELECT v.repo_id, v.number, COUNT(*) FROM forge_reviews v
		WHERE (`+where+`) AND v.state = $`+fmt.Sprint(len(args)+1)+` AND v.dismissed = FALSE
			AND v.id = (SELECT MAX(l.id) FROM forge_reviews l
				WHERE l.repo_id = v.repo_id AND l.number = v.number AND l.author = v.author AND l.state <> $`+fmt.Sprint(len(args)+2)+`)
		GROUP BY v.repo_id, v.number`, append(args[:len(args):len(args)], forge.ReviewApprove, forge.ReviewCommented)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var repo, number, n int64
		if err := rows.Scan(&repo, &number, &n); err != nil {
			return err
		}
		k := IssueKey{uint64(repo), uint64(number)}
		if c, ok := out[k]; ok {
			c.Approvals = int(n)
			out[k] = c
		}
	}
	return rows.Err()
}

func (ix *Index) readChecks(ctx context.Context, where string, args []any) (map[IssueKey]PullChecks, error) {
	out := map[IssueKey]PullChecks{}
	rows, err := ix.query(ctx, `SELECT p.repo_id, p.number, p.head_sha FROM forge_pulls p WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type head struct {
		repo int64
		sha  string
	}
	keys := map[head][]IssueKey{}
	var heads []any
	var conds []string
	for rows.Next() {
		var repo, number int64
		var sha string
		if err := rows.Scan(&repo, &number, &sha); err != nil {
			return nil, err
		}
		k := IssueKey{uint64(repo), uint64(number)}
		out[k] = PullChecks{HeadSHA: sha, Statuses: []CommitStatus{}}
		h := head{repo, sha}
		if _, seen := keys[h]; !seen {
			heads = append(heads, repo, sha)
			conds = append(conds, fmt.Sprintf("(s.repo_id = $%d AND s.sha = $%d)", len(heads)-1, len(heads)))
		}
		keys[h] = append(keys[h], k)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(conds) == 0 {
		return out, nil
	}
	srows, err := ix.query(ctx, `SELECT `+statusCols+`, s.repo_id FROM forge_commit_statuses s
		LEFT JOIN chain_accounts a ON a.address = s.creator
		WHERE (`+strings.Join(conds, " OR ")+`) AND s.id = (SELECT MAX(l.id) FROM forge_commit_statuses l
			WHERE l.repo_id = s.repo_id AND l.sha = s.sha AND l.context = s.context)
		ORDER BY s.repo_id, s.sha, s.context`, heads...)
	if err != nil {
		return nil, err
	}
	defer srows.Close()
	for srows.Next() {
		var repo int64
		st, err := scanStatus(srows, &repo)
		if err != nil {
			return nil, err
		}
		for _, k := range keys[head{repo, st.SHA}] {
			if c := out[k]; len(c.Statuses) < MaxLatestStatuses {
				c.Statuses = append(c.Statuses, st)
				out[k] = c
			}
		}
	}
	return out, srows.Err()
}
