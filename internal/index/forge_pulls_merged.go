package index

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// HasMergedPull says whether author has had a pull request merged into
// repository repo: Actions no longer asks a writer to approve the runs of
// such a contributor's pull requests (Gitea's rule for first-time
// contributors).
func (ix *Index) HasMergedPull(ctx context.Context, repo uint64, author common.Address) (bool, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_pulls p JOIN forge_issues i ON i.repo_id = p.repo_id AND i.number = p.number
		WHERE p.repo_id = $1 AND p.merged = TRUE AND i.author = $2`, int64(repo), author.Hex()).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read the merged pull requests of %s: %w", author.Hex(), err)
	}
	return n > 0, nil
}
