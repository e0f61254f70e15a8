package actions

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

// Cancel cancels repo's run id: its jobs that have not ended end
// cancelled; a runner on one learns it at its next UpdateTask.
func (s *Service) Cancel(ctx context.Context, repo uint64, id int64) error {
	run, err := s.RunByID(ctx, repo, id)
	if err != nil {
		return err
	}
	if done(run.Status) {
		return usererr.Clashf("run_done", "run %d has ended", run.Number)
	}
	return s.cancelRun(ctx, run.ID)
}

func (s *Service) cancelRun(ctx context.Context, runID int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE actions_jobs SET status = 'cancelled', stopped_ms = $1
		WHERE run_id = $2 AND status IN ('blocked', 'waiting', 'running')`, s.ms(), runID)
	if err != nil {
		return fmt.Errorf("cancel run %d: %w", runID, err)
	}
	// A run cancelled before its approval never posts a status (no one
	// with the authority to acted): its jobs are done with, so the worker
	// does not look at them again.
	_, err = s.db.ExecContext(ctx, `UPDATE actions_jobs SET posted = status WHERE run_id = $1
		AND EXISTS (SELECT 1 FROM actions_runs r WHERE r.id = $1 AND r.need_approval = 1 AND r.approved_by = '')`, runID)
	if err != nil {
		return fmt.Errorf("close the statuses of run %d: %w", runID, err)
	}
	s.readyChanged()
	return s.jobEnded(ctx, runID)
}

// Rerun starts a new run of repo's run id, at the same commit with the
// same event, in actor's name. With failedOnly, the jobs that succeeded
// keep their results and outputs, and only the others run again. A run
// that needed approval keeps its approval, or, not approved, waits again.
func (s *Service) Rerun(ctx context.Context, repo uint64, id int64, actor common.Address, failedOnly bool) (Run, error) {
	run, err := s.RunByID(ctx, repo, id)
	if err != nil {
		return Run{}, err
	}
	if !done(run.Status) {
		return Run{}, usererr.Clashf("run_active", "run %d has not ended; cancel it first", run.Number)
	}
	if run.Error != "" {
		return Run{}, usererr.Clashf("run_invalid", "run %d's workflow is invalid: %s", run.Number, run.Error)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Run{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	var number, newID int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(number), 0) + 1 FROM actions_runs WHERE repo_id = $1`, int64(repo)).Scan(&number); err != nil {
		return Run{}, fmt.Errorf("number the run: %w", err)
	}
	// The re-run enters its workflow's concurrency group as a new run
	// does: it waits for the group's older runs, or cancels them.
	var group string
	var cancels bool
	err = tx.QueryRowContext(ctx, `INSERT INTO actions_runs (repo_id, number, workflow, name, title, event, ref, sha, actor, status, context, fork, concurrency, cancel_in_progress, created_ms, need_approval, approved_by)
		SELECT repo_id, $1, workflow, name, title, event, ref, sha, $2, CASE WHEN need_approval = 1 AND approved_by = '' THEN 'blocked' ELSE 'waiting' END,
			context, fork, concurrency, cancel_in_progress, $3, need_approval, approved_by FROM actions_runs WHERE id = $4 RETURNING id, concurrency, cancel_in_progress = 1`,
		number, addr(actor), s.ms(), run.ID).Scan(&newID, &group, &cancels)
	if err != nil {
		return Run{}, fmt.Errorf("copy the run: %w", err)
	}
	held, err := groupHolds(ctx, tx, repo, group, cancels, newID)
	if err != nil {
		return Run{}, err
	}
	if err := s.copyJobs(ctx, tx, run.ID, newID, failedOnly, run.Held() || held); err != nil {
		return Run{}, err
	}
	if err := tx.Commit(); err != nil {
		return Run{}, fmt.Errorf("commit the rerun: %w", err)
	}
	if group != "" && cancels {
		if err := s.cancelGroup(ctx, repo, group, newID); err != nil {
			return Run{}, err
		}
	}
	s.readyChanged()
	if err := s.jobEnded(ctx, newID); err != nil { // kept results may unblock jobs
		return Run{}, err
	}
	return s.RunByID(ctx, repo, newID)
}

// copyJobs copies run from's jobs into run to, fresh, or, with keepPassed,
// keeping those that succeeded as they ended; with held (not approved)
// none is ready.
func (s *Service) copyJobs(ctx context.Context, tx *sql.Tx, from, to int64, keepPassed, held bool) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO actions_jobs (run_id, repo_id, job_key, name, needs, runs_on, payload, concurrency, status, outputs, started_ms, stopped_ms, posted)
		SELECT $1, repo_id, job_key, name, needs, runs_on, payload, concurrency,
			CASE WHEN $2 AND status = 'success' THEN 'success' WHEN needs = '' AND NOT $4 THEN 'waiting' ELSE 'blocked' END,
			CASE WHEN $2 AND status = 'success' THEN outputs ELSE '{}' END,
			CASE WHEN $2 AND status = 'success' THEN started_ms ELSE 0 END,
			CASE WHEN $2 AND status = 'success' THEN stopped_ms ELSE 0 END,
			CASE WHEN $2 AND status = 'success' THEN 'success' ELSE '' END
		FROM actions_jobs WHERE run_id = $3 ORDER BY id`, to, keepPassed, from, held)
	if err != nil {
		return fmt.Errorf("copy the jobs: %w", err)
	}
	return nil
}
