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
