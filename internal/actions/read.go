package actions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nektos/act/pkg/model"

	"github.com/dforge/dforge/internal/usererr"
)

// Run is a workflow run as the API and the pages show it.
type Run struct {
	ID, Number                int64
	Repo                      uint64
	Workflow, Name, Title     string
	Event, Ref, SHA, Actor    string
	Status, Error             string
	Created, Started, Stopped int64 // Unix ms; 0: not yet
	// NeedApproval: a first-time contributor's pull request from a fork,
	// held until a writer approves it; ApprovedBy is that writer's
	// lower-case address ('' until then).
	NeedApproval bool
	ApprovedBy   string
}

// Held says whether the run still waits for a writer's approval.
func (r Run) Held() bool { return r.NeedApproval && r.ApprovedBy == "" }

// Job is one job of a run.
type Job struct {
	ID, RunID         int64
	Key, Name, Status string
	Needs, RunsOn     []string
	RunnerID          int64
	Started, Stopped  int64
	Steps             []Step
	StepNames         []string // the workflow's names of its steps
	LogRows           int64
}

// Step is a job's step as its runner reported it.
type Step = stepJSON

// LogRow is one line of a job's log.
type LogRow struct {
	Index, Time int64
	Content     string
}

// RunFilter narrows Runs; empty fields match everything.
type RunFilter struct {
	Workflow, Ref, Event, Status, Actor string
	Limit, Offset                       int
}

const runColumns = `id, number, repo_id, workflow, name, title, event, ref, sha, actor, status, error, created_ms, started_ms, stopped_ms, need_approval, approved_by`

func scanRun(sc interface{ Scan(...any) error }) (Run, error) {
	var r Run
	var need int
	err := sc.Scan(&r.ID, &r.Number, &r.Repo, &r.Workflow, &r.Name, &r.Title, &r.Event, &r.Ref, &r.SHA, &r.Actor, &r.Status, &r.Error, &r.Created, &r.Started, &r.Stopped,
		&need, &r.ApprovedBy)
	r.NeedApproval = need == 1
	return r, err
}

// Runs lists repo's runs, newest first, with their total.
func (s *Service) Runs(ctx context.Context, repo uint64, f RunFilter) ([]Run, int64, error) {
	where := ` FROM actions_runs WHERE repo_id = $1 AND ($2 = '' OR workflow = $2) AND ($3 = '' OR ref = $3) AND ($4 = '' OR event = $4)
		AND ($5 = '' OR status = $5) AND ($6 = '' OR actor = $6)`
	args := []any{int64(repo), f.Workflow, f.Ref, f.Event, f.Status, f.Actor}
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*)`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count runs: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+runColumns+where+` ORDER BY id DESC LIMIT $7 OFFSET $8`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("read a run: %w", err)
		}
		out = append(out, r)
	}
	return out, total, rows.Err()
}

// RunByID is repo's run id.
func (s *Service) RunByID(ctx context.Context, repo uint64, id int64) (Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM actions_runs WHERE repo_id = $1 AND id = $2`, int64(repo), id))
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, usererr.Missingf("the repository has no run %d", id)
	}
	if err != nil {
		return Run{}, fmt.Errorf("read run %d: %w", id, err)
	}
	return r, nil
}

// Jobs lists a run's jobs in their order.
func (s *Service) Jobs(ctx context.Context, runID int64) ([]Job, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+jobColumns+` FROM actions_jobs WHERE run_id = $1 ORDER BY id`, runID)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	defer rows.Close()
	var out []Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

const jobColumns = `id, run_id, job_key, name, status, needs, runs_on, runner_id, started_ms, stopped_ms, steps, log_rows, payload`

func scanJob(sc interface{ Scan(...any) error }) (Job, error) {
	var j Job
	var needs, runsOn, steps, payload string
	if err := sc.Scan(&j.ID, &j.RunID, &j.Key, &j.Name, &j.Status, &needs, &runsOn, &j.RunnerID, &j.Started, &j.Stopped, &steps, &j.LogRows, &payload); err != nil {
		return Job{}, fmt.Errorf("read a job: %w", err)
	}
	j.Needs, j.RunsOn, j.StepNames = split(needs), split(runsOn), stepNames(payload)
	if err := json.Unmarshal([]byte(steps), &j.Steps); err != nil {
		return Job{}, fmt.Errorf("decode job %d's steps: %w", j.ID, err)
	}
	return j, nil
}

// JobByID is repo's job id.
func (s *Service) JobByID(ctx context.Context, repo uint64, id int64) (Job, error) {
	j, err := scanJob(s.db.QueryRowContext(ctx, `SELECT `+jobColumns+` FROM actions_jobs WHERE repo_id = $1 AND id = $2`, int64(repo), id))
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, usererr.Missingf("the repository has no job %d", id)
	}
	if err != nil {
		return Job{}, err
	}
	return j, nil
}

// Log reads up to limit rows of job id's log from row from.
func (s *Service) Log(ctx context.Context, id, from int64, limit int) ([]LogRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT idx, time_ms, content FROM actions_logs WHERE job_id = $1 AND idx >= $2 ORDER BY idx LIMIT $3`, id, from, limit)
	if err != nil {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	defer rows.Close()
	var out []LogRow
	for rows.Next() {
		var l LogRow
		if err := rows.Scan(&l.Index, &l.Time, &l.Content); err != nil {
			return nil, fmt.Errorf("read a log row: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// stepNames are the names of a job's steps as GitHub shows them: the
// step's name, else "Run" and its command's first line or its action.
func stepNames(payload string) []string {
	wf, err := model.ReadWorkflow(strings.NewReader(payload))
	if err != nil {
		return nil
	}
	for _, job := range wf.Jobs {
		out := make([]string, len(job.Steps))
		for i, st := range job.Steps {
			out[i] = st.String()
			if st.Name == "" && st.Run != "" {
				line, _, _ := strings.Cut(strings.TrimSpace(st.Run), "\n")
				out[i] = "Run " + line
			}
		}
		return out
	}
	return nil
}

// Task is a job as Gitea's tasks list shows it, with its run's fields.
type Task struct {
	Job Job
	Run Run
}

// Tasks lists repo's jobs, newest first, with their runs and the total.
func (s *Service) Tasks(ctx context.Context, repo uint64, limit, offset int) ([]Task, int64, error) {
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM actions_jobs WHERE repo_id = $1`, int64(repo)).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count tasks: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, run_id FROM actions_jobs WHERE repo_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, int64(repo), limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list tasks: %w", err)
	}
	type ids struct{ job, run int64 }
	var all []ids
	for rows.Next() {
		var i ids
		if err := rows.Scan(&i.job, &i.run); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("read a task: %w", err)
		}
		all = append(all, i)
	}
	rows.Close()
	out := make([]Task, 0, len(all))
	for _, i := range all {
		j, err := s.JobByID(ctx, repo, i.job)
		if err != nil {
			return nil, 0, err
		}
		r, err := s.RunByID(ctx, repo, i.run)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, Task{Job: j, Run: r})
	}
	return out, total, nil
}
