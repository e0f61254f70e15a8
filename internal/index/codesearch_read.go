package index

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// Reads for code search (internal/codesearch): which repositories exist,
// and which private ones a viewer reads.

// RepoIDs lists every repository's id, public and private, by id.
func (ix *Index) RepoIDs(ctx context.Context) ([]uint64, error) {
	return ix.repoIDs(ctx, `SELECT id FROM forge_repos ORDER BY id`)
}

// ReadablePrivateRepoIDs lists the private repositories viewer reads, as
// Repos decides: its owner's and those it collaborates on.
func (ix *Index) ReadablePrivateRepoIDs(ctx context.Context, viewer common.Address) ([]uint64, error) {
	if viewer == (common.Address{}) {
		return nil, nil
	}
	return ix.repoIDs(ctx, `SELECT r.id FROM forge_repos r WHERE r.private = TRUE AND (r.owner = $1
		OR EXISTS (SELECT 1 FROM forge_collaborators c WHERE c.repo_id = r.id AND c.user_address = $1)) ORDER BY r.id`, viewer.Hex())
}

func (ix *Index) repoIDs(ctx context.Context, query string, args ...any) ([]uint64, error) {
	rows, err := ix.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list repository ids: %w", err)
	}
	defer rows.Close()
	var out []uint64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("list repository ids: %w", err)
		}
		out = append(out, uint64(id))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list repository ids: %w", err)
	}
	return out, nil
}
