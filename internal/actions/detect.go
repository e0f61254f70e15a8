package actions

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/nektos/act/pkg/jobparser"
	"github.com/nektos/act/pkg/model"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Workflow folders, in the order Gitea reads them: .gitea wins when both
// hold workflows.
var workflowDirs = []string{".gitea/workflows", ".github/workflows"}

// triggerRetention bounds how long a trigger whose git data is missing
// is retried.
const triggerRetention = 10 * time.Minute

// trigger is an event that may start runs.
type trigger struct {
	ID                 int64
	Repo               uint64
	Event, Ref         string
	Before, After, Who string
	Created            int64
	// Inputs are a workflow_dispatch's inputs.
	Inputs map[string]any
	// Payload is the event's own fields.
	Payload eventPayload
}

// detectAll turns every pending trigger into runs.
func (s *Service) detectAll(ctx context.Context) error {
	for range 1000 { // bounded: the rest waits for the next round
		t, ok, err := s.nextTrigger(ctx)
		if err != nil || !ok {
			return err
		}
		if err := s.detect(ctx, t); err != nil {
			if s.ms()-t.Created < triggerRetention.Milliseconds() {
				return fmt.Errorf("trigger %d: %w", t.ID, err)
			}
			s.log.Warn("actions: drop a trigger", "repo", t.Repo, "ref", t.Ref, "err", err)
			if _, err := s.db.ExecContext(ctx, `DELETE FROM actions_triggers WHERE id = $1`, t.ID); err != nil {
				return fmt.Errorf("drop trigger: %w", err)
			}
		}
	}
	return nil
}

func (s *Service) nextTrigger(ctx context.Context) (trigger, bool, error) {
	var t trigger
	var payload string
	err := s.db.QueryRowContext(ctx, `SELECT id, repo_id, event, ref, before_sha, after_sha, actor, payload, created_ms
		FROM actions_triggers ORDER BY id LIMIT 1`).Scan(&t.ID, &t.Repo, &t.Event, &t.Ref, &t.Before, &t.After, &t.Who, &payload, &t.Created)
	if errors.Is(err, sql.ErrNoRows) {
		return t, false, nil
	}
	if err != nil {
		return t, false, fmt.Errorf("read triggers: %w", err)
	}
	if err := json.Unmarshal([]byte(payload), &t.Payload); err != nil {
		return t, false, fmt.Errorf("decode trigger %d: %w", t.ID, err)
	}
	return t, true, nil
}

// detect reads the workflows at the trigger's commit and, in one
// transaction with the trigger's removal, records a run for each that the
// event matches.
func (s *Service) detect(ctx context.Context, t trigger) error {
	repo, err := s.cfg.Index.RepoByID(ctx, t.Repo)
	if err != nil {
		if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound { // deleted since
			_, err = s.db.ExecContext(ctx, `DELETE FROM actions_triggers WHERE id = $1`, t.ID)
		}
		return err
	}
	// A pull request's workflows are its head's, where its commits are.
	src := t.Repo
	if t.Event == "pull_request" && t.Payload.HeadRepo != 0 {
		src = t.Payload.HeadRepo
	}
	dir, err := s.cfg.RepoDir(ctx, src)
	if err != nil {
		return fmt.Errorf("find the git data: %w", err)
	}
	if t.After == "" { // issues, comments, releases: their ref's commit
		if t.Ref == "" {
			t.Ref = "refs/heads/" + repo.DefaultBranch
		}
		if t.After, err = gitstore.Resolve(ctx, dir, t.Ref); err != nil {
			_, err = s.db.ExecContext(ctx, `DELETE FROM actions_triggers WHERE id = $1`, t.ID)
			return err // an empty repository, or a tag gone: nothing to run
		}
	}
	files, err := workflowFiles(ctx, dir, t.After)
	if err != nil {
		return err
	}
	if t.Event == "push" && t.Payload.Title == "" { // a push's runs are titled by its head commit, as Gitea's
		if subject, err := gitstore.CommitSubject(ctx, dir, t.After); err == nil {
			t.Payload.Title = subject
		}
	}
	if t.Event == "push" && t.Ref == "refs/heads/"+repo.DefaultBranch {
		if err := s.refreshSchedules(ctx, dir, repo, t, files); err != nil {
			return err
		}
	}
	var runs []plannedRun
	var changed []string
	match := func(events []*jobparser.Event) (bool, error) { return matches(ctx, dir, t, events, &changed) }
	for _, f := range files {
		p, err := planRun(ctx, dir, repo, t, f, match)
		if err != nil {
			return err
		}
		if p != nil {
			runs = append(runs, *p)
		}
	}
	return s.record(ctx, t, runs)
}

// workflowFiles lists the workflow files at commit: .gitea's, or else
// .github's. Every issue and comment of a repository asks, so the folders
// are read through the gitstore's pooled cat-file, never a git process of
// their own, and so are the files (readWorkflow, by the entries' ids).
func workflowFiles(ctx context.Context, dir, commit string) ([]gitstore.Entry, error) {
	for _, d := range workflowDirs {
		entries, err := gitstore.Tree(ctx, dir, commit, d)
		if errors.Is(err, gitstore.ErrPathNotFound) {
			continue // no such folder at this commit
		}
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", d, err)
		}
		var files []gitstore.Entry
		for _, e := range entries {
			if ext := path.Ext(e.Name); e.Type == "blob" && (ext == ".yml" || ext == ".yaml") {
				e.Path = d + "/" + e.Name
				files = append(files, e)
			}
		}
		if len(files) > 0 {
			return files, nil
		}
	}
	return nil, nil
}

// maxWorkflowBytes bounds a workflow file: a bigger one is an invalid
// workflow, never a megabytes-long parse.
const maxWorkflowBytes = 1 << 20

// readWorkflow reads workflow file f, an entry of workflowFiles, through
// the gitstore's pool.
func readWorkflow(ctx context.Context, dir string, f gitstore.Entry) (string, error) {
	if f.Size > maxWorkflowBytes {
		return "", fmt.Errorf("%w: %s is %d bytes, over the %d a workflow may have", errWorkflowTooBig, f.Path, f.Size, maxWorkflowBytes)
	}
	content, err := gitstore.ReadBlob(ctx, dir, f.ID, maxWorkflowBytes)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", f.Path, err)
	}
	return string(content), nil
}

// errWorkflowTooBig is a workflow file over maxWorkflowBytes.
var errWorkflowTooBig = errors.New("the workflow file is too big")

func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := gitstore.Command(ctx, dir, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(errOut.String()))
	}
	return strings.TrimRight(out.String(), "\x00\n"), nil
}

// plannedRun is a run to record: its workflow's jobs, or the parser's
// complaint.
type plannedRun struct {
	Workflow, Name string
	Jobs           []plannedJob
	Error          string
	// Concurrency is the workflow's concurrency group; CancelInProgress
	// cancels the group's older runs instead of waiting for them.
	Concurrency      string
	CancelInProgress bool
}

type plannedJob struct {
	Key, Name, Payload string
	Needs, RunsOn      []string
	// Concurrency is the job's own concurrency group (jobConcurrency);
	// CancelInProgress cancels the group's jobs of older runs.
	Concurrency      string
	CancelInProgress bool
}

// planRun is the run file's workflow gives for t, or nil when match says
// the workflow does not listen to the event.
func planRun(ctx context.Context, dir string, repo index.Repo, t trigger, file gitstore.Entry, match func([]*jobparser.Event) (bool, error)) (out *plannedRun, err error) {
	// The parser is a library of its own: a workflow that crashes it is
	// an invalid workflow, never a crashed node.
	defer func() {
		if v := recover(); v != nil {
			out, err = &plannedRun{Workflow: file.Name, Name: file.Name, Error: fmt.Sprintf("the workflow could not be parsed: %v", v)}, nil
		}
	}()
	p := &plannedRun{Workflow: file.Name, Name: file.Name}
	content, err := readWorkflow(ctx, dir, file)
	if errors.Is(err, errWorkflowTooBig) {
		p.Error = err.Error()
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	wf, err := model.ReadWorkflow(strings.NewReader(content))
	if err != nil {
		p.Error = "invalid workflow: " + err.Error()
		return p, nil
	}
	if wf.Name != "" {
		p.Name = wf.Name
	}
	events, err := jobparser.ParseRawOn(&wf.RawOn)
	if err != nil {
		p.Error = "invalid on: " + err.Error()
		return p, nil
	}
	ok, err := match(events)
	if err != nil || !ok {
		return nil, err
	}
	gc := gitContext(repo, t, p.Workflow)
	if rc, err := jobparser.ReadWorkflowRawConcurrency([]byte(content)); err == nil && rc != nil {
		if p.Concurrency, p.CancelInProgress, err = jobparser.EvaluateConcurrency(rc, "", nil, gc, map[string]*jobparser.JobResult{"": {}}, nil, t.Inputs); err != nil {
			p.Error = "invalid concurrency: " + err.Error()
			return p, nil
		}
	}
	jobs, err := jobparser.Parse([]byte(content), jobparser.WithGitContext(gc.toModel()), jobparser.WithInputs(t.Inputs))
	if err != nil {
		p.Error = "invalid jobs: " + err.Error()
		return p, nil
	}
	for _, swf := range jobs {
		key, job := swf.Job()
		payload, err := swf.Marshal()
		if err != nil {
			p.Error = "invalid job " + key + ": " + err.Error()
			return p, nil
		}
		group, cancel, err := jobConcurrency(key, job, gc, t.Inputs)
		if err != nil {
			p.Error = "invalid concurrency of job " + key + ": " + err.Error()
			return p, nil
		}
		p.Jobs = append(p.Jobs, plannedJob{Key: key, Name: job.Name, Payload: string(payload), Needs: job.Needs(), RunsOn: job.RunsOn(),
			Concurrency: group, CancelInProgress: cancel})
	}
	if len(p.Jobs) == 0 {
		p.Error = "the workflow has no jobs"
	}
	return p, nil
}

// jobConcurrency evaluates job key's own concurrency group as its run is
// created, over the github context, the inputs and its matrix values: its
// needs have no results or outputs yet, so they read as empty there.
func jobConcurrency(key string, job *jobparser.Job, gc ghContext, inputs map[string]any) (string, bool, error) {
	if job.RawConcurrency == nil {
		return "", false, nil
	}
	results := map[string]*jobparser.JobResult{key: {Needs: job.Needs()}}
	for _, need := range job.Needs() {
		results[need] = &jobparser.JobResult{}
	}
	return jobparser.EvaluateConcurrency(job.RawConcurrency, key, job, gc, results, nil, inputs)
}

// isBranch and friends read a full ref name.
func branchOf(ref string) (string, bool) { return strings.CutPrefix(ref, "refs/heads/") }
func tagOf(ref string) (string, bool)    { return strings.CutPrefix(ref, "refs/tags/") }

// changedFiles are the files the push changed: between its old and new
// commits, or the new commit's own for a new ref.
func changedFiles(ctx context.Context, dir string, t trigger) ([]string, error) {
	args := []string{"diff", "--name-only", "-z", t.Before, t.After}
	if t.Before == "" || t.Before == chainforge.ZeroSHA {
		args = []string{"diff-tree", "--no-commit-id", "--name-only", "-z", "-r", "--root", t.After}
	}
	out, err := gitOut(ctx, dir, args...)
	if err != nil && args[0] == "diff" { // a fork may lack the base: the head's own
		out, err = gitOut(ctx, dir, "diff-tree", "--no-commit-id", "--name-only", "-z", "-r", "--root", t.After)
	}
	if err != nil {
		return nil, fmt.Errorf("list the changed files: %w", err)
	}
	if out == "" {
		return nil, nil
	}
	return strings.Split(out, "\x00"), nil
}
