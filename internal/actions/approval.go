package actions

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Approval of first-time contributors' runs, Gitea's rule: a pull request
// from a fork by someone who is not a writer of the base and has had no
// pull request merged there runs a stranger's code on the base's runners,
// and its statuses, in the author's name, would be refused on chain. Its
// runs wait, blocked, until a writer approves them; their statuses are
// then posted in that writer's name, under the delegation the writer gave
// this node at sign-in.

// needsApproval says whether t's runs wait for a writer's approval.
func (s *Service) needsApproval(ctx context.Context, t trigger, repo index.Repo) (bool, error) {
	if t.Event != "pull_request" || !t.Payload.fork(t.Repo) {
		return false, nil
	}
	who := common.HexToAddress(t.Who)
	perm, err := s.cfg.Index.Permission(ctx, repo, who)
	if err != nil {
		return false, err
	}
	if perm >= chainforge.PermWrite {
		return false, nil
	}
	merged, err := s.cfg.Index.HasMergedPull(ctx, t.Repo, who)
	if err != nil {
		return false, err
	}
	return !merged, nil
}

// Approve lets repo's run id, held for a writer's approval, go on, with
// approver (a writer: the caller checks) as the one in whose name its
// statuses are posted.
func (s *Service) Approve(ctx context.Context, repo uint64, id int64, approver common.Address) (Run, error) {
	run, err := s.RunByID(ctx, repo, id)
	if err != nil {
		return Run{}, err
	}
	switch {
	case done(run.Status):
		return Run{}, usererr.Clashf("run_done", "run %d has ended", run.Number)
	case !run.NeedApproval:
		return Run{}, usererr.Clashf("run_approval_not_needed", "run %d needs no approval", run.Number)
	case run.ApprovedBy != "":
		return Run{}, usererr.Clashf("run_approved", "run %d is already approved", run.Number)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE actions_runs SET approved_by = $1 WHERE id = $2 AND need_approval = 1 AND approved_by = ''
		AND status NOT IN ('success', 'failure', 'cancelled', 'skipped')`, addr(approver), run.ID)
	if err != nil {
		return Run{}, fmt.Errorf("approve run %d: %w", run.Number, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return Run{}, fmt.Errorf("approve run %d: %w", run.Number, err)
	} else if n == 0 { // another writer, or a cancel, came first
		return Run{}, usererr.Clashf("run_approved", "run %d is already approved or has ended", run.Number)
	}
	if err := s.jobEnded(ctx, run.ID); err != nil { // its ready jobs go to runners
		return Run{}, err
	}
	return s.RunByID(ctx, repo, run.ID)
}
