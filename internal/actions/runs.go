package actions

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// record writes the planned runs of t and removes t, in one transaction:
// a trigger gives its runs once.
func (s *Service) record(ctx context.Context, t trigger, runs []plannedRun) error {
	_, err := s.recordRuns(ctx, t, runs)
	return err
}

// recordRuns is record, returning the new runs' ids.
func (s *Service) recordRuns(ctx context.Context, t trigger, runs []plannedRun) ([]int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	repo, err := s.cfg.Index.RepoByID(ctx, t.Repo)
	if err != nil {
		return nil, err
	}
	hold, err := s.needsApproval(ctx, t, repo)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(runs))
	for _, p := range runs {
		gc, err := json.Marshal(gitContext(repo, t, p.Workflow))
		if err != nil {
			return nil, fmt.Errorf("encode the context: %w", err)
		}
		id, err := s.insertRun(ctx, tx, t, p, string(gc), hold)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM actions_triggers WHERE id = $1`, t.ID); err != nil {
		return nil, fmt.Errorf("remove the trigger: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit the runs: %w", err)
	}
	for i, p := range runs {
		if p.Concurrency != "" && p.CancelInProgress {
			if err := s.cancelGroup(ctx, t.Repo, p.Concurrency, ids[i]); err != nil {
				return nil, err
			}
		}
		for _, j := range p.Jobs {
			if j.Concurrency != "" && j.CancelInProgress {
				if err := s.cancelJobGroup(ctx, t.Repo, j.Concurrency, ids[i]); err != nil {
					return nil, err
				}
			}
		}
	}
	if len(runs) > 0 {
		s.readyChanged()
		s.notify() // their pending statuses
	}
	return ids, nil
}

// insertRun writes one planned run of t; with needApproval (a first-time
// contributor's pull request) its jobs wait, blocked, for a writer.
func (s *Service) insertRun(ctx context.Context, tx *sql.Tx, t trigger, p plannedRun, gc string, needApproval bool) (int64, error) {
	var number int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(number), 0) + 1 FROM actions_runs WHERE repo_id = $1`, int64(t.Repo)).Scan(&number); err != nil {
		return 0, fmt.Errorf("number the run: %w", err)
	}
	status, need := StatusWaiting, 0
	switch {
	case p.Error != "":
		status = StatusFailure
	case needApproval:
		status, need = StatusBlocked, 1
	}
	now := s.ms()
	var runID int64
	fork := 0
	if t.Payload.fork(t.Repo) {
		fork = 1
	}
	cancels := 0
	if p.CancelInProgress {
		cancels = 1
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO actions_runs (repo_id, number, workflow, name, title, event, ref, sha, actor, status, error, context, fork, concurrency, cancel_in_progress, created_ms, stopped_ms, need_approval)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id`,
		int64(t.Repo), number, p.Workflow, p.Name, runTitle(t, p), t.Event, t.Ref, t.After, t.Who, status, p.Error, gc, fork, p.Concurrency, cancels, now, stoppedAt(status, now), need).Scan(&runID)
	if err != nil {
		return 0, fmt.Errorf("insert the run: %w", err)
	}
	// A run whose group has an older one still going waits for it,
	// unless it cancels it (recordRuns does, after the commit).
	held, err := groupHolds(ctx, tx, t.Repo, p.Concurrency, p.CancelInProgress, runID)
	if err != nil {
		return 0, err
	}
	for _, j := range p.Jobs {
		st := StatusWaiting
		if len(j.Needs) > 0 || held || need == 1 {
			st = StatusBlocked
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO actions_jobs (run_id, repo_id, job_key, name, needs, runs_on, payload, status, concurrency)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, runID, int64(t.Repo), j.Key, j.Name, strings.Join(j.Needs, ","), strings.Join(j.RunsOn, ","), j.Payload, st, j.Concurrency)
		if err != nil {
			return 0, fmt.Errorf("insert job %s: %w", j.Key, err)
		}
	}
	return runID, nil
}

// groupHolds says whether the new run id of repo's concurrency group
// waits: the group has an older run still going, and the run does not
// cancel it instead.
func groupHolds(ctx context.Context, tx *sql.Tx, repo uint64, group string, cancels bool, id int64) (bool, error) {
	if group == "" || cancels {
		return false, nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM actions_runs WHERE repo_id = $1 AND concurrency = $2 AND id < $3
		AND status NOT IN ('success', 'failure', 'cancelled', 'skipped')`, int64(repo), group, id).Scan(&n); err != nil {
		return false, fmt.Errorf("read the concurrency group: %w", err)
	}
	return n > 0, nil
}

// runTitle is what the runs list shows of a run: the pull request's,
// issue's or release's title, or the workflow's name.
func runTitle(t trigger, p plannedRun) string {
	if t.Payload.Title != "" {
		return t.Payload.Title
	}
	return p.Name
}

func stoppedAt(status string, now int64) int64 {
	if done(status) {
		return now
	}
	return 0
}

// settleRun updates a run's state from its jobs': running once one has
// started, failure when one failed, cancelled when one was, else success
// once all have ended.
func (s *Service) settleRun(ctx context.Context, runID int64, byJob ...bool) error {
	if len(byJob) > 0 && byJob[0] { // runID is one of its jobs'
		if err := s.db.QueryRowContext(ctx, `SELECT run_id FROM actions_jobs WHERE id = $1`, runID).Scan(&runID); err != nil {
			return fmt.Errorf("find the job's run: %w", err)
		}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT status FROM actions_jobs WHERE run_id = $1`, runID)
	if err != nil {
		return fmt.Errorf("read the run's jobs: %w", err)
	}
	defer rows.Close()
	var states []string
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err != nil {
			return fmt.Errorf("read a job's state: %w", err)
		}
		states = append(states, st)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the run's jobs: %w", err)
	}
	st := runState(states)
	now := s.ms()
	// A run waiting for its approval is blocked until it ends (a cancel).
	_, err = s.db.ExecContext(ctx, `UPDATE actions_runs SET status = CASE WHEN NOT $3 AND need_approval = 1 AND approved_by = '' THEN 'blocked' ELSE $1 END,
		started_ms = CASE WHEN started_ms = 0 AND $1 <> 'waiting' THEN $2 ELSE started_ms END,
		stopped_ms = CASE WHEN $3 THEN $2 ELSE 0 END WHERE id = $4`, st, now, done(st), runID)
	if err != nil {
		return fmt.Errorf("update the run: %w", err)
	}
	return nil
}

// runState is a run's state from its jobs' states.
func runState(jobs []string) string {
	all := true
	var failed, cancelled, running bool
	for _, st := range jobs {
		switch st {
		case StatusFailure:
			failed = true
		case StatusCancelled:
			cancelled = true
		case StatusRunning:
			running = true
		}
		all = all && done(st)
	}
	switch {
	case !all && running:
		return StatusRunning
	case !all:
		return StatusWaiting
	case failed:
		return StatusFailure
	case cancelled:
		return StatusCancelled
	}
	return StatusSuccess
}

// cancelGroup cancels the runs of repo's concurrency group older than
// run id that have not ended (cancel-in-progress).
func (s *Service) cancelGroup(ctx context.Context, repo uint64, group string, id int64) error {
	older, err := s.runIDs(ctx, `SELECT id FROM actions_runs WHERE repo_id = $1 AND concurrency = $2 AND id < $3
		AND status NOT IN ('success', 'failure', 'cancelled', 'skipped')`, int64(repo), group, id)
	if err != nil {
		return fmt.Errorf("read the concurrency group: %w", err)
	}
	for _, o := range older {
		if err := s.cancelRun(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// cancelJobGroup cancels the jobs of repo's job concurrency group, in
// runs older than run id, that have not ended (a job's cancel-in-progress).
// The jobs of run id itself are left alone: they were all created at once.
func (s *Service) cancelJobGroup(ctx context.Context, repo uint64, group string, id int64) error {
	runs, err := s.runIDs(ctx, `SELECT DISTINCT run_id FROM actions_jobs WHERE repo_id = $1 AND concurrency = $2 AND run_id < $3
		AND status IN ('blocked', 'waiting', 'running')`, int64(repo), group, id)
	if err != nil {
		return fmt.Errorf("read the job concurrency group: %w", err)
	}
	for _, r := range runs {
		_, err := s.db.ExecContext(ctx, `UPDATE actions_jobs SET status = 'cancelled', stopped_ms = $1
			WHERE run_id = $2 AND concurrency = $3 AND status IN ('blocked', 'waiting', 'running')`, s.ms(), r, group)
		if err != nil {
			return fmt.Errorf("cancel the group's jobs of run %d: %w", r, err)
		}
		if err := s.jobEnded(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// runIDs reads the run ids q selects.
func (s *Service) runIDs(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// heldBy says whether run id waits: for a writer's approval, or for an
// older run of its concurrency group.
func (s *Service) heldBy(ctx context.Context, id int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM actions_runs r WHERE r.id = $1 AND ((r.need_approval = 1 AND r.approved_by = '')
		OR (r.concurrency <> '' AND EXISTS (SELECT 1 FROM actions_runs o WHERE o.repo_id = r.repo_id AND o.concurrency = r.concurrency AND o.id < r.id
			AND o.status NOT IN ('success', 'failure', 'cancelled', 'skipped'))))`, id).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read what holds run %d: %w", id, err)
	}
	return n > 0, nil
}

// releaseGroup moves on the next run of run id's concurrency group once
// run id has ended.
func (s *Service) releaseGroup(ctx context.Context, id int64) error {
	var next int64
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MIN(n.id), 0) FROM actions_runs r JOIN actions_runs n ON n.repo_id = r.repo_id AND n.concurrency = r.concurrency AND n.id > r.id
		WHERE r.id = $1 AND r.concurrency <> '' AND r.status IN ('success', 'failure', 'cancelled', 'skipped')
		AND n.status NOT IN ('success', 'failure', 'cancelled', 'skipped')`, id).Scan(&next)
	if err != nil {
		return fmt.Errorf("find the group's next run: %w", err)
	}
	if next == 0 {
		return nil
	}
	return s.jobEnded(ctx, next)
}
