package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// The dashboard's reads that the other lists do not already make: a
// user's repositories by any relation, and the combined commit status of
// several heads at once. Its issue sections are SearchIssues with a
// relation (search.go), the same query its "see all" links run.

// repoVisible is the condition a repository r must meet for the viewer at
// $1 to see it in a list, as Repos and SearchIssues decide.
const repoVisible = `(r.private = FALSE OR r.owner = $1 OR EXISTS (SELECT 1 FROM forge_collaborators c WHERE c.repo_id = r.id AND c.user_address = $1))`

// userRepoWhere is the condition of the repositories the account at $2
// owns, collaborates on, or whose owning organization it is a member of.
const userRepoWhere = repoVisible + ` AND (r.owner = $2
	OR r.id IN (SELECT c2.repo_id FROM forge_collaborators c2 WHERE c2.user_address = $2)
	OR r.owner IN (SELECT o.address FROM forge_team_members m JOIN forge_orgs o ON o.id = m.org_id WHERE m.user_address = $2))`

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
	page, err := rememberSized(ix, readKey("user-repos", "", viewer.Hex(), u.Hex(), p.Number, p.Limit), func() (repoPage, error) {
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

// Head names a commit of a repository.
type Head struct {
	Repo uint64
	SHA  string
}

// HeadStatuses is the latest status of each context of each head, in one
// query (the dashboard shows a dozen pull requests' checks at once).
// Heads without statuses are absent; each head's list is in context
// order and bounded by MaxLatestStatuses.
func (ix *Index) HeadStatuses(ctx context.Context, heads []Head) (map[Head][]CommitStatus, error) {
	out := map[Head][]CommitStatus{}
	if len(heads) == 0 {
		return out, nil
	}
	var conds []string
	var args []any
	for _, h := range heads {
		args = append(args, int64(h.Repo), h.SHA)
		conds = append(conds, fmt.Sprintf("(s.repo_id = $%d AND s.sha = $%d)", len(args)-1, len(args)))
	}
	rows, err := ix.rdb.QueryContext(ctx, `SELECT `+statusCols+`, s.repo_id FROM forge_commit_statuses s
		LEFT JOIN chain_accounts a ON a.address = s.creator
		WHERE (`+strings.Join(conds, " OR ")+`) AND s.id = (SELECT MAX(l.id) FROM forge_commit_statuses l
			WHERE l.repo_id = s.repo_id AND l.sha = s.sha AND l.context = s.context)
		ORDER BY s.repo_id, s.sha, s.context`, args...)
	if err != nil {
		return nil, fmt.Errorf("read latest statuses of heads: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var repo int64
		st, err := scanStatus(rows, &repo)
		if err != nil {
			return nil, fmt.Errorf("read latest statuses of heads: %w", err)
		}
		h := Head{Repo: uint64(repo), SHA: st.SHA}
		if len(out[h]) < MaxLatestStatuses {
			out[h] = append(out[h], st)
		}
	}
	return out, rows.Err()
}
