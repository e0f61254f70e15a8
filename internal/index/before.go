package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Before is what an edit changed, as the projection found it before
// writing the change (an issue, review requests, a release's draft flag): the chain's event carries only the new state, and
// observers (webhooks) tell an assignment, a label change or a new review
// request from it, as Gitea sends each as its own event.
type Before struct {
	// Issue is an edited issue as it was (issue.edit): title, body,
	// labels, assignees and milestone.
	Issue *forge.Issue
	// Requested are the reviewers a pull request had open requests for
	// (pr.review.request, pr.review.unrequest).
	Requested []common.Address
	// WasDraft: an edited release was a draft (release.edit), for
	// Gitea's rule that a draft made public is published, not updated.
	WasDraft bool
}

// readBefore reads what ch is about to change, for the actions whose
// observers need it; nil for the others or a thread not projected yet.
func readBefore(ctx context.Context, tx *readdb.WriteTx, ch forge.Change) (*Before, error) {
	switch {
	case ch.Action == "issue.edit" && ch.Issue != nil:
		is, err := issueAsWas(ctx, tx, ch.Issue.Repo, ch.Issue.Number)
		if err != nil || is == nil {
			return nil, err
		}
		return &Before{Issue: is}, nil
	case (ch.Action == "pr.review.request" || ch.Action == "pr.review.unrequest") && ch.Pull != nil:
		list, err := textColumn(ctx, tx, `SELECT reviewer FROM forge_review_requests WHERE repo_id = $1 AND number = $2 ORDER BY review_id`,
			int64(ch.Pull.Repo), int64(ch.Pull.Number))
		if err != nil {
			return nil, fmt.Errorf("read the review requests of #%d before: %w", ch.Pull.Number, err)
		}
		b := &Before{Requested: []common.Address{}}
		for _, a := range list {
			b.Requested = append(b.Requested, common.HexToAddress(a))
		}
		return b, nil
	case ch.Action == "release.edit" && ch.Release != nil:
		var draft bool
		err := tx.QueryRowContext(ctx, `SELECT draft FROM forge_releases WHERE id = $1`, int64(ch.Release.ID)).Scan(&draft)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read release %d before its edit: %w", ch.Release.ID, err)
		}
		return &Before{WasDraft: draft}, nil
	}
	return nil, nil
}

// issueAsWas is issue number of repo as its rows hold it.
func issueAsWas(ctx context.Context, tx *readdb.WriteTx, repo, number uint64) (*forge.Issue, error) {
	is := forge.Issue{Repo: repo, Number: number, Labels: []uint64{}, Assignees: []common.Address{}}
	var milestone int64
	err := tx.QueryRowContext(ctx, `SELECT is_pull, title, body, COALESCE(milestone_id, 0) FROM forge_issues WHERE repo_id = $1 AND number = $2`,
		int64(repo), int64(number)).Scan(&is.IsPull, &is.Title, &is.Body, &milestone)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read #%d before its edit: %w", number, err)
	}
	is.Milestone = uint64(milestone)
	labels, err := textColumn(ctx, tx, `SELECT label_id FROM forge_issue_labels WHERE repo_id = $1 AND number = $2 ORDER BY label_id`, int64(repo), int64(number))
	if err != nil {
		return nil, fmt.Errorf("read the labels of #%d before its edit: %w", number, err)
	}
	for _, l := range labels {
		id, err := strconv.ParseUint(l, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("label id %q of #%d: %w", l, number, err)
		}
		is.Labels = append(is.Labels, id)
	}
	assignees, err := textColumn(ctx, tx, `SELECT assignee FROM forge_issue_assignees WHERE repo_id = $1 AND number = $2 ORDER BY assignee`, int64(repo), int64(number))
	if err != nil {
		return nil, fmt.Errorf("read the assignees of #%d before its edit: %w", number, err)
	}
	for _, a := range assignees {
		is.Assignees = append(is.Assignees, common.HexToAddress(a))
	}
	return &is, nil
}
