package actions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/dforge/dforge/internal/usererr"
)

// maxLogRows caps a task's log; what a flood sends beyond it is dropped
// after one note saying so.
const maxLogRows = 100_000

// job is a row of actions_jobs with its run's fields a task needs.
type job struct {
	ID, RunID, RunNumber int64
	Repo                 uint64
	Key, Name, Status    string
	Needs, RunsOn        []string
	Payload, Context     string
	RunnerID             int64
	LogRows              int64
	Fork                 bool // the run is a fork's pull request's
}

var errNoTask = usererr.Missingf("no such task")

// fetchTask hands runner r its next job, once: nil when none is ready for
// it. A runner that saw version already has been told there is none.
func (s *Service) fetchTask(ctx context.Context, r Runner, seen int64) (*runnerv1.Task, int64, error) {
	version := s.version()
	if seen == version {
		return nil, version, nil
	}
	// A ready job of a concurrency group waits while an older one of the
	// group is ready too, or any is running: the group's jobs go out one
	// at a time, oldest first.
	rows, err := s.db.QueryContext(ctx, `SELECT j.id, j.repo_id, j.runs_on FROM actions_jobs j WHERE j.status = 'waiting'
		AND NOT EXISTS (SELECT 1 FROM actions_jobs o WHERE j.concurrency <> '' AND o.repo_id = j.repo_id AND o.concurrency = j.concurrency
			AND (o.status = 'running' OR (o.status = 'waiting' AND o.id < j.id)))
		ORDER BY j.id LIMIT 200`)
	if err != nil {
		return nil, version, fmt.Errorf("list ready jobs: %w", err)
	}
	type ready struct {
		id     int64
		repo   uint64
		runsOn string
	}
	var cands []ready
	for rows.Next() {
		var c ready
		if err := rows.Scan(&c.id, &c.repo, &c.runsOn); err != nil {
			rows.Close()
			return nil, version, fmt.Errorf("read a ready job: %w", err)
		}
		cands = append(cands, c)
	}
	rows.Close()
	for _, c := range cands {
		if !fits(r.Labels, c.runsOn) || !s.inScope(ctx, r.Scope, c.repo) {
			continue
		}
		res, err := s.claim(ctx, r, c.id)
		if err != nil {
			return nil, version, fmt.Errorf("claim job %d: %w", c.id, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue // another runner took it
		}
		// The runner keeps the version read before the claim: its next
		// poll looks again, for the jobs this one left.
		s.readyChanged()
		t, err := s.taskOf(ctx, c.id)
		if err != nil {
			return nil, version, err
		}
		if err := s.settleRun(ctx, t.Id, true); err != nil {
			return nil, version, err
		}
		s.notify() // its pending-to-running status
		return t, version, nil
	}
	return nil, version, nil
}

// claim gives ready job id to runner r, unless another runner took it
// first or a job of its concurrency group started meanwhile (a job of the
// group older than the one chosen can become ready after the choice).
// Claims take turns: PostgreSQL would let two of them each see the other's
// job not yet running.
func (s *Service) claim(ctx context.Context, r Runner, id int64) (sql.Result, error) {
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	return s.db.ExecContext(ctx, `UPDATE actions_jobs SET status = 'running', runner_id = $1, started_ms = $2, contact_ms = $2
		WHERE id = $3 AND status = 'waiting' AND NOT EXISTS (SELECT 1 FROM actions_jobs o WHERE actions_jobs.concurrency <> ''
			AND o.repo_id = actions_jobs.repo_id AND o.concurrency = actions_jobs.concurrency AND o.status = 'running')`, r.ID, s.ms(), id)
}

// fits says whether a runner with labels takes a job that runs on runsOn
// (all of them, as GitHub's runs-on list).
func fits(labels []string, runsOn string) bool {
	for _, want := range strings.Split(runsOn, ",") {
		if want != "" && !slices.Contains(labels, want) {
			return false
		}
	}
	return true
}

// inScope says whether a runner registered in sc may run repo's jobs.
func (s *Service) inScope(ctx context.Context, sc Scope, repo uint64) bool {
	switch {
	case sc.Repo != 0:
		return sc.Repo == repo
	case sc.owner() == "":
		return true
	}
	rec, err := s.cfg.Index.RepoByID(ctx, repo)
	return err == nil && strings.EqualFold(rec.Owner.Address, sc.owner())
}

func (s *Service) readJob(ctx context.Context, id int64) (job, error) {
	var j job
	var needs, runsOn string
	err := s.db.QueryRowContext(ctx, `SELECT j.id, j.run_id, r.number, j.repo_id, j.job_key, j.name, j.status, j.needs, j.runs_on, j.payload, r.context, j.runner_id, j.log_rows, r.fork
		FROM actions_jobs j JOIN actions_runs r ON r.id = j.run_id WHERE j.id = $1`, id).
		Scan(&j.ID, &j.RunID, &j.RunNumber, &j.Repo, &j.Key, &j.Name, &j.Status, &needs, &runsOn, &j.Payload, &j.Context, &j.RunnerID, &j.LogRows, &j.Fork)
	if errors.Is(err, sql.ErrNoRows) {
		return job{}, errNoTask
	}
	if err != nil {
		return job{}, fmt.Errorf("read job %d: %w", id, err)
	}
	j.Needs, j.RunsOn = split(needs), split(runsOn)
	return j, nil
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// taskOf is job id as the runner receives it.
func (s *Service) taskOf(ctx context.Context, id int64) (*runnerv1.Task, error) {
	j, err := s.readJob(ctx, id)
	if err != nil {
		return nil, err
	}
	var gc ghContext
	if err := json.Unmarshal([]byte(j.Context), &gc); err != nil {
		return nil, fmt.Errorf("decode the run's context: %w", err)
	}
	token := s.runtimeToken(j.RunID, j.ID, j.Repo)
	pc, err := structpb.NewStruct(gc.forTask(j.RunID, j.RunNumber, j.Key, s.cfg.BaseURL, token))
	if err != nil {
		return nil, fmt.Errorf("encode the task's context: %w", err)
	}
	needs, err := s.needsOf(ctx, j)
	if err != nil {
		return nil, err
	}
	secrets, err := s.taskSecrets(ctx, j.Repo, j.Fork) // a fork's pull request gets none
	if err != nil {
		return nil, err
	}
	// secrets.GITHUB_TOKEN and GITEA_TOKEN, as Gitea gives every job: the
	// job's token, which reads the run's repository only (forks' too).
	secrets["GITHUB_TOKEN"], secrets["GITEA_TOKEN"] = token, token
	vars, err := s.taskVars(ctx, j.Repo)
	if err != nil {
		return nil, err
	}
	return &runnerv1.Task{Id: j.ID, WorkflowPayload: []byte(j.Payload), Context: pc, Secrets: secrets, Vars: vars, Needs: needs}, nil
}

// needsOf are the results and outputs of the jobs j needs.
func (s *Service) needsOf(ctx context.Context, j job) (map[string]*runnerv1.TaskNeed, error) {
	out := map[string]*runnerv1.TaskNeed{}
	if len(j.Needs) == 0 {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT job_key, status, outputs FROM actions_jobs WHERE run_id = $1`, j.RunID)
	if err != nil {
		return nil, fmt.Errorf("read the needed jobs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, st, outs string
		if err := rows.Scan(&key, &st, &outs); err != nil {
			return nil, fmt.Errorf("read a needed job: %w", err)
		}
		if !slices.Contains(j.Needs, key) {
			continue
		}
		n := out[key]
		if n == nil { // a matrix: the worst of its jobs, their outputs merged
			n = &runnerv1.TaskNeed{Outputs: map[string]string{}, Result: runnerv1.Result_RESULT_SUCCESS}
			out[key] = n
		}
		if r := resultOf(st); r != runnerv1.Result_RESULT_SUCCESS {
			n.Result = r
		}
		var o map[string]string
		if json.Unmarshal([]byte(outs), &o) == nil {
			for k, v := range o {
				n.Outputs[k] = v
			}
		}
	}
	return out, rows.Err()
}

func resultOf(status string) runnerv1.Result {
	switch status {
	case StatusSuccess:
		return runnerv1.Result_RESULT_SUCCESS
	case StatusFailure:
		return runnerv1.Result_RESULT_FAILURE
	case StatusCancelled:
		return runnerv1.Result_RESULT_CANCELLED
	case StatusSkipped:
		return runnerv1.Result_RESULT_SKIPPED
	}
	return runnerv1.Result_RESULT_UNSPECIFIED
}

func statusOf(r runnerv1.Result) string {
	switch r {
	case runnerv1.Result_RESULT_SUCCESS:
		return StatusSuccess
	case runnerv1.Result_RESULT_CANCELLED:
		return StatusCancelled
	case runnerv1.Result_RESULT_SKIPPED:
		return StatusSkipped
	}
	return StatusFailure
}

// ownTask is the job of task id if runner r holds it, else errNoTask:
// a runner learns nothing of tasks it was not given.
func (s *Service) ownTask(ctx context.Context, r Runner, id int64) (job, error) {
	j, err := s.readJob(ctx, id)
	if err != nil {
		return job{}, err
	}
	if j.RunnerID != r.ID {
		return job{}, errNoTask
	}
	return j, nil
}

// stepJSON is a step's state as the run page shows it.
type stepJSON struct {
	Result    string `json:"result"`
	Started   int64  `json:"started"`
	Stopped   int64  `json:"stopped"`
	LogIndex  int64  `json:"logIndex"`
	LogLength int64  `json:"logLength"`
}

// updateTask records a task's state from its runner; the answer says
// whether the task was cancelled meanwhile.
func (s *Service) updateTask(ctx context.Context, r Runner, st *runnerv1.TaskState, outputs map[string]string) (*runnerv1.TaskState, []string, error) {
	if st == nil {
		return nil, nil, usererr.BadFieldf("state", "state is required")
	}
	j, err := s.ownTask(ctx, r, st.Id)
	if err != nil {
		return nil, nil, err
	}
	if j.Status != StatusRunning { // cancelled or timed out: tell the runner
		return &runnerv1.TaskState{Id: j.ID, Result: resultOf(j.Status)}, nil, nil
	}
	steps := make([]stepJSON, len(st.Steps))
	for i, sp := range st.Steps {
		steps[i] = stepJSON{Result: resultName(sp.Result), Started: msOf(sp.StartedAt), Stopped: msOf(sp.StoppedAt), LogIndex: sp.LogIndex, LogLength: sp.LogLength}
	}
	stepsJSON, _ := json.Marshal(steps)
	sent, outsJSON, err := s.mergeOutputs(ctx, j.ID, outputs)
	if err != nil {
		return nil, nil, err
	}
	status, stopped := StatusRunning, int64(0)
	if st.Result != runnerv1.Result_RESULT_UNSPECIFIED {
		status, stopped = statusOf(st.Result), s.ms()
	}
	_, err = s.db.ExecContext(ctx, `UPDATE actions_jobs SET steps = $1, outputs = $2, contact_ms = $3, status = $4, stopped_ms = $5
		WHERE id = $6 AND status = 'running'`, string(stepsJSON), outsJSON, s.ms(), status, stopped, j.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("update task %d: %w", j.ID, err)
	}
	if status != StatusRunning {
		if err := s.jobEnded(ctx, j.RunID); err != nil {
			return nil, nil, err
		}
	}
	s.bump()
	return &runnerv1.TaskState{Id: j.ID, Result: st.Result}, sent, nil
}

func msOf(t *timestamppb.Timestamp) int64 {
	if t == nil {
		return 0
	}
	return t.AsTime().UnixMilli()
}

func resultName(r runnerv1.Result) string {
	if r == runnerv1.Result_RESULT_UNSPECIFIED {
		return ""
	}
	return statusOf(r)
}

// mergeOutputs adds a task's outputs to those it sent before (each is set
// once, as Gitea keeps them) and returns the keys it now holds.
func (s *Service) mergeOutputs(ctx context.Context, id int64, outputs map[string]string) ([]string, string, error) {
	var raw string
	if err := s.db.QueryRowContext(ctx, `SELECT outputs FROM actions_jobs WHERE id = $1`, id).Scan(&raw); err != nil {
		return nil, "", fmt.Errorf("read the outputs: %w", err)
	}
	have := map[string]string{}
	_ = json.Unmarshal([]byte(raw), &have)
	for k, v := range outputs {
		if _, ok := have[k]; !ok && len(k) <= 255 && len(v) <= 1<<20 {
			have[k] = v
		}
	}
	keys := make([]string, 0, len(have))
	for k := range have {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b, _ := json.Marshal(have)
	return keys, string(b), nil
}

// jobEnded moves the run on: jobs whose needs have all ended become ready
// (or are skipped, when one of them did not succeed), and the run's state
// follows its jobs'.
func (s *Service) jobEnded(ctx context.Context, runID int64) error {
	held, err := s.heldBy(ctx, runID)
	if err != nil {
		return err
	}
	for range 100 { // skips cascade along needs; a run has fewer levels
		if held {
			break
		}
		changed, err := s.unblock(ctx, runID)
		if err != nil {
			return err
		}
		if !changed {
			break
		}
	}
	// A job that ended may have held a ready job of its concurrency group.
	s.readyChanged()
	s.notify()
	if err := s.settleRun(ctx, runID); err != nil {
		return err
	}
	return s.releaseGroup(ctx, runID)
}

func (s *Service) unblock(ctx context.Context, runID int64) (bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, job_key, needs, status, payload FROM actions_jobs WHERE run_id = $1`, runID)
	if err != nil {
		return false, fmt.Errorf("read the run's jobs: %w", err)
	}
	type row struct {
		id                      int64
		key, needs, st, payload string
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.key, &r.needs, &r.st, &r.payload); err != nil {
			rows.Close()
			return false, fmt.Errorf("read a job: %w", err)
		}
		all = append(all, r)
	}
	rows.Close()
	changed := false
	for _, b := range all {
		if b.st != StatusBlocked {
			continue
		}
		// The needs' results, a matrix's worst of its jobs'; none while
		// one of them has not ended.
		results, ready := map[string]string{}, true
		for _, need := range split(b.needs) {
			for _, o := range all {
				if o.key != need {
					continue
				}
				if !done(o.st) {
					ready = false
				} else if results[need] == "" || o.st != StatusSuccess {
					results[need] = o.st
				}
			}
		}
		if !ready {
			continue
		}
		next := StatusWaiting
		if ok, err := ifAllows(b.payload, results); err != nil {
			s.log.Warn("actions: a job's if cannot be evaluated", "job", b.id, "err", err)
			next = StatusFailure
		} else if !ok {
			next = StatusSkipped
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE actions_jobs SET status = $1, stopped_ms = $2 WHERE id = $3 AND status = 'blocked'`,
			next, stoppedAt(next, s.ms()), b.id); err != nil {
			return false, fmt.Errorf("unblock job %d: %w", b.id, err)
		}
		changed = true
		if next == StatusWaiting {
			s.readyChanged()
		}
	}
	return changed, nil
}

// updateLog appends a task's log rows from index on; rows it already
// holds are skipped, so a runner's retry appends nothing twice.
func (s *Service) updateLog(ctx context.Context, r Runner, id, index int64, rows []*runnerv1.LogRow) (int64, error) {
	j, err := s.ownTask(ctx, r, id)
	if err != nil {
		return 0, err
	}
	if index > j.LogRows {
		return j.LogRows, usererr.BadFieldf("index", "log rows from %d are missing; the node holds %d", j.LogRows, j.LogRows)
	}
	skip := j.LogRows - index
	if skip >= int64(len(rows)) {
		return j.LogRows, nil
	}
	contents := make([]string, 0, len(rows)-int(skip))
	for _, row := range rows[skip:] {
		contents = append(contents, row.Content)
	}
	if contents, err = s.maskRows(ctx, j.Repo, contents); err != nil { // no secret reaches the log
		return 0, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	next := j.LogRows
	for i, row := range rows[skip:] {
		content, t := contents[i], msOf(row.Time)
		switch {
		case next > maxLogRows:
			next++ // acknowledged, not kept
			continue
		case next == maxLogRows:
			content = fmt.Sprintf("(the log is over %d lines; the rest is not kept)", maxLogRows)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO actions_logs (job_id, idx, time_ms, content) VALUES ($1, $2, $3, $4)`, j.ID, next, t, content); err != nil {
			return 0, fmt.Errorf("append log row: %w", err)
		}
		next++
	}
	if _, err := tx.ExecContext(ctx, `UPDATE actions_jobs SET log_rows = $1, contact_ms = $2 WHERE id = $3`, next, s.ms(), j.ID); err != nil {
		return 0, fmt.Errorf("count log rows: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit log rows: %w", err)
	}
	s.bump()
	return next, nil
}

// expireTasks fails running tasks whose runner has been silent for the
// task timeout: a runner that died mid-task.
func (s *Service) expireTasks(ctx context.Context) error {
	cutoff := s.ms() - s.cfg.TaskTimeout.Milliseconds()
	rows, err := s.db.QueryContext(ctx, `SELECT id, run_id FROM actions_jobs WHERE status = 'running' AND contact_ms < $1`, cutoff)
	if err != nil {
		return fmt.Errorf("find silent tasks: %w", err)
	}
	var ids, runs []int64
	for rows.Next() {
		var id, run int64
		if err := rows.Scan(&id, &run); err != nil {
			rows.Close()
			return fmt.Errorf("read a silent task: %w", err)
		}
		ids, runs = append(ids, id), append(runs, run)
	}
	rows.Close()
	for i, id := range ids {
		if _, err := s.db.ExecContext(ctx, `UPDATE actions_jobs SET status = 'failure', stopped_ms = $1 WHERE id = $2 AND status = 'running'`, s.ms(), id); err != nil {
			return fmt.Errorf("fail task %d: %w", id, err)
		}
		s.log.Warn("actions: a runner went silent; its task failed", "task", id)
		if err := s.jobEnded(ctx, runs[i]); err != nil {
			return err
		}
	}
	return nil
}
