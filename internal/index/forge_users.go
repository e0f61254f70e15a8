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
	return `SELECT dw.u FROM (
		SELECT r.owner AS u FROM forge_repos r WHERE r.id = ` + repo + `
			AND NOT EXISTS (SELECT 1 FROM forge_orgs o WHERE o.address = r.owner)
		UNION SELECT c.user_address AS u FROM forge_collaborators c WHERE c.repo_id = ` + repo + `
			AND c.permission IN ('write', 'maintain')
		UNION SELECT m.user_address AS u FROM forge_repos r JOIN forge_orgs o ON o.address = r.owner
			JOIN forge_team_members m ON m.team_id = o.owners_team WHERE r.id = ` + repo + `
		) dw WHERE dw.u NOT IN (SELECT uw.user_address FROM forge_unwatches uw WHERE uw.repo_id = ` + repo + `)`
}

func (ix *Index) hasFlag(ctx context.Context, table string, repo uint64, u common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE repo_id = $1 AND user_address = $2`, int64(repo), u.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", table, err)
	}
	return n > 0, nil
}
