package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// A repository's people: collaborators, stargazers and watchers.

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
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list collaborators: %w", err)
	}
	return out, nil
}

// Stargazers (table forge_stars) or watchers (forge_watches, with those by
// default) of a repository, newest first: table is a table or a derived
// one with repo_id, user_address and height.
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
		return nil, 0, fmt.Errorf("list flags of repository %d: %w", repo, err)
	}
	return out, total, nil
}

// Stargazers lists who starred a repository, newest first.
func (ix *Index) Stargazers(ctx context.Context, repo uint64, p Page) ([]User, int64, error) {
	return ix.flagUsers(ctx, "forge_stars", repo, p)
}

// Watchers lists who watches a repository, newest first, then those who
// watch it by default (defaultWatchers) and never asked to.
func (ix *Index) Watchers(ctx context.Context, repo uint64, p Page) ([]User, int64, error) {
	return ix.flagUsers(ctx, `(SELECT w.repo_id, w.user_address, w.height FROM forge_watches w WHERE w.repo_id = $1
		UNION ALL SELECT CAST($1 AS BIGINT), d.u, 0 FROM (`+defaultWatchers("$1")+`) d
			WHERE d.u NOT IN (SELECT x.user_address FROM forge_watches x WHERE x.repo_id = $1))`, repo, p)
}

// Starred reports whether u starred repo.
func (ix *Index) Starred(ctx context.Context, repo uint64, u common.Address) (bool, error) {
	return ix.hasFlag(ctx, "forge_stars", repo, u)
}

// Watching reports whether u watches repo: by asking to, or by default
// (defaultWatchers) and not having unwatched it.
func (ix *Index) Watching(ctx context.Context, repo uint64, u common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM (SELECT user_address AS u FROM forge_watches WHERE repo_id = $1
		UNION ALL `+defaultWatchers("$1")+`) w WHERE w.u = $2`, int64(repo), u.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read forge_watches: %w", err)
	}
	return n > 0, nil
}

// defaultWatchers selects, as column u, who watches the repository whose
// id the SQL expression repo is without having asked to, as on Gitea: its
// owner (a user, not an organization), its collaborators with write or
// maintain, and the members of its organization's Owners team; less those
// who unwatched it since (forge_unwatches). Everyone derives it from the
// chain alone, so every node notifies the same people.
func defaultWatchers(repo string) string {
	// Aliases of their own, so repo may name a column of the outer query.
	return `SELECT dw.u FROM (
		SELECT dwr.owner AS u FROM forge_repos dwr WHERE dwr.id = ` + repo + `
			AND NOT EXISTS (SELECT 1 FROM forge_orgs dwo WHERE dwo.address = dwr.owner)
		UNION SELECT dwc.user_address AS u FROM forge_collaborators dwc WHERE dwc.repo_id = ` + repo + `
			AND dwc.permission IN ('write', 'maintain')
		UNION SELECT dwm.user_address AS u FROM forge_repos dwr JOIN forge_orgs dwo ON dwo.address = dwr.owner
			JOIN forge_team_members dwm ON dwm.team_id = dwo.owners_team WHERE dwr.id = ` + repo + `
		) dw WHERE dw.u NOT IN (SELECT dwu.user_address FROM forge_unwatches dwu WHERE dwu.repo_id = ` + repo + `)`
}

func (ix *Index) hasFlag(ctx context.Context, table string, repo uint64, u common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE repo_id = $1 AND user_address = $2`, int64(repo), u.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", table, err)
	}
	return n > 0, nil
}
