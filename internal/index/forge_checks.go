package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dforge/dforge/internal/index/readdb"
)

// Commit statuses and branch protection rules, as projected from
// status.create, branch.protect and branch.unprotect.

func writeStatus(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	st := c.change.Status
	if st == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_commit_statuses (id, repo_id, sha, context, state, description, target_url, creator, height, time_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
		int64(st.ID), int64(st.Repo), st.SHA, st.Context, st.State, st.Description, st.TargetURL, st.Creator.Hex(), c.height, c.timeNS)
	if err != nil {
		return fmt.Errorf("write status %d: %w", st.ID, err)
	}
	return nil
}

func writeProtection(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	if d := c.change.DeletedProtection; d != nil {
		if _, err := tx.ExecContext(ctx, `DELETE FROM forge_branch_protections WHERE repo_id = $1 AND branch = $2`, int64(d.Repo), d.Branch); err != nil {
			return fmt.Errorf("delete protection of %d/%s: %w", d.Repo, d.Branch, err)
		}
	}
	p := c.change.Protection
	if p == nil {
		return nil
	}
	whitelist := make([]string, 0, len(p.PushWhitelist))
	for _, a := range p.PushWhitelist {
		whitelist = append(whitelist, a.Hex())
	}
	wl, _ := json.Marshal(whitelist)
	contexts, _ := json.Marshal(p.StatusCheckContexts)
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_branch_protections (repo_id, branch, enable_push, push_whitelist,
		enable_status_check, status_check_contexts, required_approvals, created_time_ns, updated_time_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
		ON CONFLICT (repo_id, branch) DO UPDATE SET enable_push = excluded.enable_push, push_whitelist = excluded.push_whitelist,
		enable_status_check = excluded.enable_status_check, status_check_contexts = excluded.status_check_contexts,
		required_approvals = excluded.required_approvals, updated_time_ns = excluded.updated_time_ns`,
		int64(p.Repo), p.Branch, p.EnablePush, string(wl), p.EnableStatusCheck, string(contexts), int64(p.RequiredApprovals), c.timeNS)
	if err != nil {
		return fmt.Errorf("write protection of %d/%s: %w", p.Repo, p.Branch, err)
	}
	return nil
}
