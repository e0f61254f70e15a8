package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// RepoTransfer is a repository's pending transfer.
type RepoTransfer struct {
	Repo      uint64   `json:"repo"`
	Doer      User     `json:"doer"`
	Recipient User     `json:"recipient"`
	Teams     []uint64 `json:"teams"`
	Height    int64    `json:"height"`
}

// RepoTransfer reads repository repo's pending transfer; false when it
// has none.
func (ix *Index) RepoTransfer(ctx context.Context, repo uint64) (RepoTransfer, bool, error) {
	var t RepoTransfer
	var doer, doerName, recipient, recipientName, teams string
	err := ix.queryRow(ctx, `SELECT t.doer, `+userExpr("d")+`, t.recipient, `+userExpr("rc")+`, t.teams, t.height
		FROM forge_repo_transfers t LEFT JOIN chain_accounts d ON d.address = t.doer
		LEFT JOIN chain_accounts rc ON rc.address = t.recipient
		WHERE t.repo_id = $1`, int64(repo)).Scan(&doer, &doerName, &recipient, &recipientName, &teams, &t.Height)
	if errors.Is(err, sql.ErrNoRows) {
		return t, false, nil
	}
	if err != nil {
		return t, false, fmt.Errorf("read the transfer of repository %d: %w", repo, err)
	}
	if err := json.Unmarshal([]byte(teams), &t.Teams); err != nil {
		return t, false, fmt.Errorf("decode the teams of the transfer of repository %d: %w", repo, err)
	}
	t.Repo, t.Doer, t.Recipient = repo, user(doer, doerName), user(recipient, recipientName)
	return t, true, nil
}
