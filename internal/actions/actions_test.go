package actions_test

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"gitea.dev/actions-proto-go/runner/v1/runnerv1connect"
	"go.yaml.in/yaml/v4"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/dforge/dforge/internal/forgetest"
)

func TestMain(m *testing.M) { forgetest.Main(m) }

const ciWorkflow = `name: CI
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        go: ["1.25", "1.26"]
    steps:
      - run: echo test ${{ matrix.go }}
  deploy:
    needs: test
    runs-on: ubuntu-latest
    steps:
      - run: echo deploy
`

// newRepo creates owner's repository name, with a README on main, and
// returns its API path.
func newRepo(n *forgetest.Node, owner *forgetest.User, name string) string {
	n.JSON("POST", "/api/v1/user/repos", owner, map[string]any{"name": name, "auto_init": true, "default_branch": "main"}, http.StatusCreated, nil)
	return "/api/v1/repos/" + owner.Name() + "/" + name
}

// runnerToken is a new registration token for the repository at repo.
func runnerToken(n *forgetest.Node, owner *forgetest.User, repo string) string {
	var tok struct{ Token string }
	n.JSON("POST", repo+"/actions/runners/registration-token", owner, nil, http.StatusOK, &tok)
	return tok.Token
}

// runner is a registered runner as a client of the protocol.
type runner struct {
	t      testing.TB
	client runnerv1connect.RunnerServiceClient
	uuid   string
	token  string
	seen   int64
}

func register(t testing.TB, n *forgetest.Node, regToken string, labels ...string) *runner {
	t.Helper()
	c := runnerv1connect.NewRunnerServiceClient(http.DefaultClient, n.URL+"/api/actions")
	res, err := c.Register(context.Background(), connect.NewRequest(&runnerv1.RegisterRequest{Name: "r", Token: regToken, Version: "test", Labels: labels}))
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	r := &runner{t: t, client: c, uuid: res.Msg.Runner.Uuid, token: res.Msg.Runner.Token}
	if _, err := c.Declare(context.Background(), r.req(&runnerv1.DeclareRequest{Version: "test", Labels: labels})); err != nil {
		t.Fatalf("declare: %v", err)
	}
	return r
}

func newReq[T any](r *runner, msg *T) *connect.Request[T] {
	req := connect.NewRequest(msg)
	req.Header().Set("x-runner-uuid", r.uuid)
	req.Header().Set("x-runner-token", r.token)
	return req
}

func (r *runner) req(msg *runnerv1.DeclareRequest) *connect.Request[runnerv1.DeclareRequest] {
	return newReq(r, msg)
}

// fetch polls for a task until one comes or the deadline passes.
func (r *runner) fetch(within time.Duration) *runnerv1.Task {
	r.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		res, err := r.client.FetchTask(context.Background(), newReq(r, &runnerv1.FetchTaskRequest{TasksVersion: r.seen}))
		if err != nil {
			r.t.Fatalf("fetch a task: %v", err)
		}
		r.seen = res.Msg.TasksVersion
		if res.Msg.Task != nil {
			return res.Msg.Task
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

func (r *runner) finish(task *runnerv1.Task, result runnerv1.Result, lines ...string) {
	r.t.Helper()
	ctx := context.Background()
	rows := make([]*runnerv1.LogRow, len(lines))
	for i, l := range lines {
		rows[i] = &runnerv1.LogRow{Time: timestamppb.Now(), Content: l}
	}
	if _, err := r.client.UpdateLog(ctx, newReq(r, &runnerv1.UpdateLogRequest{TaskId: task.Id, Index: 0, Rows: rows, NoMore: true})); err != nil {
		r.t.Fatalf("update the log: %v", err)
	}
	st := &runnerv1.TaskState{Id: task.Id, Result: result, StartedAt: timestamppb.Now(), StoppedAt: timestamppb.Now(),
		Steps: []*runnerv1.StepState{{Id: 0, Result: result, LogIndex: 0, LogLength: int64(len(lines))}}}
	if _, err := r.client.UpdateTask(ctx, newReq(r, &runnerv1.UpdateTaskRequest{State: st, Outputs: map[string]string{"v": "1"}})); err != nil {
		r.t.Fatalf("update the task: %v", err)
	}
}

func jobName(task *runnerv1.Task) string {
	return task.Context.AsMap()["job"].(string) + " " + string(task.WorkflowPayload)
}

// A push with a workflow of two jobs, one a matrix of two and one needing
// it, becomes a run whose jobs a registered runner fetches in order, each
// once; their results become commit statuses and the run's state, and a
// malformed workflow becomes a failed run with the parser's message.
func TestAPushRunsItsWorkflowOnARunner(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	repo := newRepo(n, alice, "ci")
	tok := runnerToken(n, alice, repo)

	// A bad registration token, and a runner the node does not know.
	c := runnerv1connect.NewRunnerServiceClient(http.DefaultClient, n.URL+"/api/actions")
	if _, err := c.Register(context.Background(), connect.NewRequest(&runnerv1.RegisterRequest{Token: "nope"})); connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Fatalf("register with a bad token: %v", err)
	}
	stranger := &runner{t: t, client: c, uuid: "x", token: "y"}
	if _, err := c.FetchTask(context.Background(), newReq(stranger, &runnerv1.FetchTaskRequest{})); connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Fatalf("fetch as an unknown runner: %v", err)
	}
	res, err := http.Post(n.URL+"/api/actions/runner.v1.RunnerService/FetchTask", "application/json", strings.NewReader("{}"))
	if err != nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("fetch without credentials over HTTP: %v %v", res.StatusCode, err)
	}
	res.Body.Close()

	r := register(t, n, tok, "ubuntu-latest:host")
	dir := n.Clone(n.Remote(alice, alice.Name(), "ci"))
	sha := n.Commit(dir, "ci", map[string]string{".gitea/workflows/ci.yml": ciWorkflow, ".gitea/workflows/broken.yml": "on: push\njobs: [\n",
		".github/workflows/other.yml": "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo never\n"})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")

	first, second := r.fetch(30*time.Second), r.fetch(5*time.Second)
	if first == nil || second == nil {
		t.Fatal("the matrix's two jobs were not handed out")
	}
	for _, task := range []*runnerv1.Task{first, second} {
		if !strings.Contains(jobName(task), "test") || !strings.Contains(string(task.WorkflowPayload), "matrix") {
			t.Fatalf("a first task is not the matrix's: %s", jobName(task))
		}
		if got := task.Context.AsMap()["sha"]; got != sha {
			t.Fatalf("the task's sha is %v, want %s", got, sha)
		}
	}
	if extra := r.fetch(time.Second); extra != nil {
		t.Fatalf("a job that needs unfinished ones was handed out: %s", jobName(extra))
	}
	// A task it was not given is not found.
	_, err = r.client.UpdateTask(context.Background(), newReq(r, &runnerv1.UpdateTaskRequest{State: &runnerv1.TaskState{Id: first.Id + 1000}}))
	if connect.CodeOf(err) != connect.CodeNotFound {
		t.Fatalf("update a task not given: %v", err)
	}

	r.finish(first, runnerv1.Result_RESULT_SUCCESS, "test ok")
	r.finish(second, runnerv1.Result_RESULT_SUCCESS, "test ok")
	deploy := r.fetch(10 * time.Second)
	if deploy == nil || !strings.Contains(jobName(deploy), "deploy") {
		t.Fatal("the job that needs the matrix was not handed out after it")
	}
	if need := deploy.Needs["test"]; need == nil || need.Result != runnerv1.Result_RESULT_SUCCESS || need.Outputs["v"] != "1" {
		t.Fatalf("the deploy job's needs: %v", deploy.Needs)
	}
	r.finish(deploy, runnerv1.Result_RESULT_FAILURE, "deploy failed")

	// The statuses reach the commit: failure overall, one per job.
	var combined struct {
		State    string
		Statuses []struct{ Context, Status string }
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		n.JSON("GET", repo+"/commits/"+sha+"/status", alice, nil, http.StatusOK, &combined)
		if combined.State == "failure" && len(combined.Statuses) == 3 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if combined.State != "failure" || len(combined.Statuses) != 3 {
		t.Fatalf("combined status: %+v", combined)
	}
	for _, s := range combined.Statuses {
		if !strings.HasPrefix(s.Context, "CI / ") || !strings.HasSuffix(s.Context, " (push)") {
			t.Fatalf("a status's context: %q", s.Context)
		}
	}

	var runs struct {
		Runs []struct {
			ID                       int64
			Path, Status, Conclusion string
			Error                    string
			Title                    string `json:"display_title"`
		} `json:"workflow_runs"`
		Total int64 `json:"total_count"`
	}
	n.JSON("GET", repo+"/actions/runs", alice, nil, http.StatusOK, &runs)
	for _, run := range runs.Runs {
		if run.Title != "ci" { // the pushed commit's subject
			t.Fatalf("a push's run is titled %q, want its commit's subject", run.Title)
		}
	}
	if runs.Total != 2 {
		t.Fatalf("runs: %+v (the .github workflow must yield to .gitea's)", runs)
	}
	for _, run := range runs.Runs {
		switch run.Path {
		case "ci.yml":
			if run.Conclusion != "failure" || run.Error != "" {
				t.Fatalf("the CI run: %+v", run)
			}
			var jobs struct {
				Jobs []struct {
					ID         int64
					Name       string
					Conclusion string
				}
			}
			n.JSON("GET", repo+"/actions/runs/"+itoa(run.ID)+"/jobs", alice, nil, http.StatusOK, &jobs)
			if len(jobs.Jobs) != 3 {
				t.Fatalf("the CI run's jobs: %+v", jobs)
			}
			log := n.Call("GET", repo+"/actions/jobs/"+itoa(jobs.Jobs[2].ID)+"/logs", alice, nil)
			if log.Status != http.StatusOK || !strings.Contains(string(log.Body), "deploy failed") {
				t.Fatalf("the deploy job's log: %d %s", log.Status, log.Body)
			}
		case "broken.yml":
			if run.Conclusion != "failure" || !strings.Contains(run.Error, "yaml") {
				t.Fatalf("the malformed workflow's run: %+v", run)
			}
		default:
			t.Fatalf("an unexpected run: %+v", run)
		}
	}
	var tasks struct {
		Tasks []struct {
			Name, Status, Event string
			RunNumber           int64 `json:"run_number"`
		} `json:"workflow_runs"`
		Total int64 `json:"total_count"`
	}
	n.JSON("GET", repo+"/actions/tasks", alice, nil, http.StatusOK, &tasks)
	if tasks.Total != 3 || tasks.Tasks[0].Status != "failure" || tasks.Tasks[0].Event != "push" {
		t.Fatalf("Gitea's tasks list: %+v", tasks)
	}
	if res := n.Call("GET", repo+"/actions/runs/999999", alice, nil); res.Status != http.StatusNotFound {
		t.Fatalf("a missing run: %d", res.Status)
	}
	if errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

func itoa(v int64) string { return strconvFormat(v) }

func strconvFormat(v int64) string { return strconv.FormatInt(v, 10) }

// Twenty queued jobs and two runners polling at once: each job is handed
// out exactly once. A runner that falls silent mid-task has the task
// failed after the timeout, and the next job goes to the other runner.
func TestJobsGoOutOnceAndASilentRunnerFails(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t, forgetest.WithActionsTaskTimeout(2*time.Second))
	alice := n.NewUser()
	repo := newRepo(n, alice, "many")
	tok := runnerToken(n, alice, repo)
	a, b := register(t, n, tok, "linux:host"), register(t, n, tok, "linux:host")

	var shards []string
	for i := range 20 {
		shards = append(shards, strconv.Itoa(i))
	}
	wf := "on: push\njobs:\n  shard:\n    runs-on: linux\n    strategy:\n      matrix:\n        n: [" + strings.Join(shards, ", ") + "]\n    steps:\n      - run: echo ${{ matrix.n }}\n" +
		"  after:\n    needs: shard\n    if: always()\n    runs-on: linux\n    steps:\n      - run: echo after\n"
	dir := n.Clone(n.Remote(alice, alice.Name(), "many"))
	n.Commit(dir, "many", map[string]string{".github/workflows/many.yml": wf})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")

	got := make(chan *runnerv1.Task, 40)
	var done sync.WaitGroup
	for _, r := range []*runner{a, b} {
		done.Add(1)
		go func() {
			defer done.Done()
			for range 20 {
				task := r.fetch(5 * time.Second)
				if task == nil {
					return
				}
				got <- task
				r.finish(task, runnerv1.Result_RESULT_SUCCESS, "ok")
			}
		}()
	}
	done.Wait()
	close(got)
	seen := map[int64]bool{}
	for task := range got {
		if seen[task.Id] {
			t.Fatalf("task %d was handed out twice", task.Id)
		}
		seen[task.Id] = true
	}
	if len(seen) != 21 {
		t.Fatalf("%d tasks handed out, want the 20 shards and the job after them", len(seen))
	}

	// Runner a takes a job and falls silent; it fails after the timeout,
	// and the next goes to b.
	n.Commit(dir, "again", map[string]string{"x": "1", ".github/workflows/many.yml": "on: push\njobs:\n  one:\n    runs-on: linux\n    steps:\n      - run: echo one\n  two:\n    needs: one\n    if: always()\n    runs-on: linux\n    steps:\n      - run: echo two\n"})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	silent := a.fetch(30 * time.Second)
	if silent == nil {
		t.Fatal("the second push's first job was not handed out")
	}
	next := b.fetch(30 * time.Second)
	if next == nil || next.Needs["one"].GetResult() != runnerv1.Result_RESULT_FAILURE {
		t.Fatalf("after a silent runner, the next job: %v", next)
	}
	// The silent runner, back, learns its task has ended.
	res, err := a.client.UpdateTask(context.Background(), newReq(a, &runnerv1.UpdateTaskRequest{State: &runnerv1.TaskState{Id: silent.Id}}))
	if err != nil || res.Msg.State.Result != runnerv1.Result_RESULT_FAILURE {
		t.Fatalf("the silent runner's update: %v %v", res, err)
	}
}

// Pull requests, issues and workflow_dispatch start runs of the
// workflows that listen to them; a run is cancelled (its runner learns
// it), re-run, and a dispatch's inputs are checked and reach the job.
func TestEventsStartRunsAndWritersCancelAndRerun(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	repo := newRepo(n, alice, "ev")
	tok := runnerToken(n, alice, repo)
	r := register(t, n, tok, "linux:host")

	job := "jobs:\n  j:\n    runs-on: linux\n    steps:\n      - run: echo ${{ github.event_name }}\n"
	dir := n.Clone(n.Remote(alice, alice.Name(), "ev"))
	n.Commit(dir, "workflows", map[string]string{
		".gitea/workflows/pr.yml":       "on:\n  pull_request:\n    branches: [main]\n" + job,
		".gitea/workflows/issue.yml":    "on:\n  issues:\n    types: [opened]\n" + job,
		".gitea/workflows/comment.yml":  "on:\n  issue_comment:\n    types: [created]\n" + job,
		".gitea/workflows/dispatch.yml": "on:\n  workflow_dispatch:\n    inputs:\n      level:\n        type: choice\n        options: [low, high]\n        required: true\n" + job,
	})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	n.Git(dir, "checkout", "--quiet", "-b", "feature")
	head := n.Commit(dir, "feature", map[string]string{"f.txt": "x"})
	n.Git(dir, "push", "--quiet", "origin", "feature")

	n.JSON("POST", repo+"/pulls", alice, map[string]any{"head": "feature", "base": "main", "title": "Add f"}, http.StatusCreated, nil)
	prTask := r.fetch(30 * time.Second)
	ctx := prTask.GetContext().AsMap()
	if prTask == nil || ctx["event_name"] != "pull_request" || ctx["sha"] != head || ctx["head_ref"] != "feature" {
		t.Fatalf("the pull request's task: %v", ctx)
	}
	var issue struct{ Number int64 }
	n.JSON("POST", repo+"/issues", alice, map[string]any{"title": "Bug"}, http.StatusCreated, &issue)
	issueTask := r.fetch(30 * time.Second)
	if issueTask == nil || issueTask.GetContext().AsMap()["event_name"] != "issues" {
		t.Fatalf("the issue's task: %v", issueTask)
	}
	// A comment's workflows are the default branch's, read without a git process of its own.
	n.JSON("POST", repo+"/issues/"+strconv.FormatInt(issue.Number, 10)+"/comments", bob, map[string]any{"body": "Same here"}, http.StatusCreated, nil)
	commentTask := r.fetch(30 * time.Second)
	if commentTask == nil || commentTask.GetContext().AsMap()["event_name"] != "issue_comment" {
		t.Fatalf("the comment's task: %v", commentTask)
	}

	// A dispatch checks its inputs, and they reach the job.
	for _, bad := range []map[string]any{{"ref": "main"}, {"ref": "main", "inputs": map[string]string{"level": "max"}},
		{"ref": "main", "inputs": map[string]string{"level": "low", "other": "x"}}, {"ref": "nope", "inputs": map[string]string{"level": "low"}}} {
		if res := n.Call("POST", repo+"/actions/workflows/dispatch.yml/dispatches", alice, bad); res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("dispatch %v: %d %s", bad, res.Status, res.Body)
		}
	}
	if res := n.Call("POST", repo+"/actions/workflows/pr.yml/dispatches", alice, map[string]any{"ref": "main"}); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("dispatch a workflow without workflow_dispatch: %d %s", res.Status, res.Body)
	}
	if res := n.Call("POST", repo+"/actions/workflows/dispatch.yml/dispatches", bob, map[string]any{"ref": "main", "inputs": map[string]string{"level": "low"}}); res.Status != http.StatusForbidden {
		t.Fatalf("a reader dispatches: %d %s", res.Status, res.Body)
	}
	n.JSON("POST", repo+"/actions/workflows/dispatch.yml/dispatches", alice, map[string]any{"ref": "main", "inputs": map[string]string{"level": "high"}}, http.StatusNoContent, nil)
	dispatched := r.fetch(30 * time.Second)
	inputs, _ := dispatched.GetContext().AsMap()["event"].(map[string]any)["inputs"].(map[string]any)
	if inputs["level"] != "high" {
		t.Fatalf("the dispatched task's inputs: %v", dispatched.GetContext().AsMap()["event"])
	}

	// Cancel the pull request's run: its runner learns it; a reader may
	// not; an ended run cannot be cancelled again; a re-run starts anew.
	var runs struct {
		Runs []struct {
			ID        int64
			RunNumber int64 `json:"run_number"`
			Event     string
			State     string
		} `json:"workflow_runs"`
	}
	n.JSON("GET", repo+"/actions/runs?event=pull_request", alice, nil, http.StatusOK, &runs)
	if len(runs.Runs) != 1 {
		t.Fatalf("pull request runs: %+v", runs)
	}
	prRun := "/actions/runs/" + strconv.FormatInt(runs.Runs[0].ID, 10)
	if res := n.Call("POST", repo+prRun+"/cancel", bob, nil); res.Status != http.StatusForbidden {
		t.Fatalf("a reader cancels: %d %s", res.Status, res.Body)
	}
	n.JSON("POST", repo+prRun+"/cancel", alice, nil, http.StatusAccepted, nil)
	res, err := r.client.UpdateTask(context.Background(), newReq(r, &runnerv1.UpdateTaskRequest{State: &runnerv1.TaskState{Id: prTask.Id}}))
	if err != nil || res.Msg.State.Result != runnerv1.Result_RESULT_CANCELLED {
		t.Fatalf("the runner of a cancelled task: %v %v", res, err)
	}
	if res := n.Call("POST", repo+prRun+"/cancel", alice, nil); res.Status != http.StatusConflict {
		t.Fatalf("cancel an ended run: %d %s", res.Status, res.Body)
	}
	var again struct {
		ID        int64
		RunNumber int64 `json:"run_number"`
		State     string
		Event     string
	}
	n.JSON("POST", repo+prRun+"/rerun", alice, nil, http.StatusCreated, &again)
	if again.ID == runs.Runs[0].ID || again.RunNumber <= runs.Runs[0].RunNumber || again.State != "waiting" || again.Event != "pull_request" {
		t.Fatalf("the re-run: %+v", again)
	}
	rerunTask := r.fetch(30 * time.Second)
	if rerunTask == nil || rerunTask.GetContext().AsMap()["run_id"] != strconv.FormatInt(again.ID, 10) {
		t.Fatalf("the re-run's task: %v", rerunTask)
	}
}

// A workflow's concurrency group: with cancel-in-progress a newer push
// cancels the older run; without it the newer run waits for the older
// one to end.
func TestConcurrencyGroups(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	repo := newRepo(n, alice, "cc")
	tok := runnerToken(n, alice, repo)
	r := register(t, n, tok, "linux:host")
	job := "jobs:\n  j:\n    runs-on: linux\n    steps:\n      - run: echo hi\n"
	dir := n.Clone(n.Remote(alice, alice.Name(), "cc"))
	push := func(files map[string]string) {
		n.Commit(dir, "change", files)
		n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	}
	states := func(workflow string) []string {
		var runs struct {
			Runs []struct{ State string } `json:"workflow_runs"`
		}
		n.JSON("GET", repo+"/actions/runs?workflow="+workflow, alice, nil, http.StatusOK, &runs)
		var out []string
		for _, run := range runs.Runs { // newest first
			out = append(out, run.State)
		}
		return out
	}
	waitStates := func(workflow string, want ...string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) && strings.Join(states(workflow), ",") != strings.Join(want, ",") {
			time.Sleep(100 * time.Millisecond)
		}
		if got := states(workflow); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%s runs: %v, want %v", workflow, got, want)
		}
	}

	cancelling := "on: push\nconcurrency:\n  group: ci-${{ github.ref }}\n  cancel-in-progress: true\n" + job
	push(map[string]string{".gitea/workflows/c.yml": cancelling})
	first := r.fetch(30 * time.Second)
	push(map[string]string{"a": "1"})
	waitStates("c.yml", "waiting", "cancelled")
	res, err := r.client.UpdateTask(context.Background(), newReq(r, &runnerv1.UpdateTaskRequest{State: &runnerv1.TaskState{Id: first.Id}}))
	if err != nil || res.Msg.State.Result != runnerv1.Result_RESULT_CANCELLED {
		t.Fatalf("the older run's runner: %v %v", res, err)
	}
	r.finish(r.fetch(30*time.Second), runnerv1.Result_RESULT_SUCCESS)
	waitStates("c.yml", "success", "cancelled")

	queued := "on: push\nconcurrency: deploy\n" + job
	push(map[string]string{".gitea/workflows/c.yml": queued})
	older := r.fetch(30 * time.Second)
	push(map[string]string{"a": "2"})
	waitStates("c.yml", "waiting", "running", "success", "cancelled")
	if held := r.fetch(time.Second); held != nil {
		t.Fatal("the newer run of a group ran while the older one was running")
	}
	r.finish(older, runnerv1.Result_RESULT_SUCCESS)
	newer := r.fetch(30 * time.Second)
	if newer == nil {
		t.Fatal("the newer run of the group did not start once the older one ended")
	}

	// A re-run enters the group too: it waits for the run now going.
	var runs struct {
		Runs []struct{ ID int64 } `json:"workflow_runs"`
	}
	n.JSON("GET", repo+"/actions/runs?workflow=c.yml", alice, nil, http.StatusOK, &runs)
	var again struct{ ID int64 }
	n.JSON("POST", repo+"/actions/runs/"+strconv.FormatInt(runs.Runs[1].ID, 10)+"/rerun", alice, nil, http.StatusCreated, &again)
	waitStates("c.yml", "waiting", "running", "success", "success", "cancelled")
	if held := r.fetch(time.Second); held != nil {
		t.Fatal("a re-run in the group ran while another run of it was running")
	}
	r.finish(newer, runnerv1.Result_RESULT_SUCCESS)
	rerun := r.fetch(30 * time.Second)
	if rerun == nil || rerun.GetContext().AsMap()["run_id"] != strconv.FormatInt(again.ID, 10) {
		t.Fatalf("the re-run did not start once the group was free: %v", rerun)
	}
}

// A pull request from a fork runs its workflow (once approved), in the
// base repository, without the base's secrets (its variables are plain and go along); a
// branch of the base itself gets them.
func TestAForksPullRequestRunsWithoutSecrets(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	repo := newRepo(n, alice, "lib")
	tok := runnerToken(n, alice, repo)
	r := register(t, n, tok, "linux:host")
	n.JSON("PUT", repo+"/actions/secrets/DEPLOY_KEY", alice, map[string]any{"data": "s3cret-value"}, http.StatusCreated, nil)
	n.JSON("POST", repo+"/actions/variables/STAGE", alice, map[string]any{"value": "prod"}, http.StatusCreated, nil)

	wf := "on: pull_request\njobs:\n  j:\n    runs-on: linux\n    steps:\n      - run: echo ${{ secrets.DEPLOY_KEY }}\n"
	dir := n.Clone(n.Remote(alice, alice.Name(), "lib"))
	n.Commit(dir, "ci", map[string]string{".gitea/workflows/pr.yml": wf})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")

	n.JSON("POST", repo+"/forks", bob, map[string]any{}, http.StatusAccepted, nil)
	fork := n.Clone(n.Remote(bob, bob.Name(), "lib"))
	n.Commit(fork, "fix", map[string]string{"fix.txt": "x"})
	n.Git(fork, "push", "--quiet", "origin", "HEAD:fix")
	n.JSON("POST", repo+"/pulls", bob, map[string]any{"head": bob.Name() + ":fix", "base": "main", "title": "Fix"}, http.StatusCreated, nil)
	// Bob's first pull request runs once a writer approves it.
	n.JSON("POST", runPath(repo, prRuns(t, n, alice, repo, 1)[0].ID)+"/approve", alice, nil, http.StatusOK, nil)
	fromFork := r.fetch(30 * time.Second)
	if fromFork == nil || fromFork.Vars["STAGE"] != "prod" {
		t.Fatalf("a fork's task: %v", fromFork)
	}
	// Only the job's own token, which reads the base repository and no more.
	if got := ownersSecrets(t, fromFork); len(got) != 0 {
		t.Fatalf("a fork's task carries the owners' secrets %v", slices.Collect(maps.Keys(got)))
	}

	n.Git(dir, "checkout", "--quiet", "-b", "own")
	n.Commit(dir, "own", map[string]string{"own.txt": "x"})
	n.Git(dir, "push", "--quiet", "origin", "own")
	n.JSON("POST", repo+"/pulls", alice, map[string]any{"head": "own", "base": "main", "title": "Own"}, http.StatusCreated, nil)
	own := r.fetch(30 * time.Second)
	if own == nil || own.Secrets["DEPLOY_KEY"] != "s3cret-value" {
		t.Fatalf("the base's own branch's task: %v", own)
	}
}

// A workflow's schedule fires at its cron's next minute, once, on the
// node that relayed the push to the default branch.
func TestAScheduleFiresOnce(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	repo := newRepo(n, alice, "cron")
	dir := n.Clone(n.Remote(alice, alice.Name(), "cron"))
	n.Commit(dir, "nightly", map[string]string{".gitea/workflows/nightly.yml": "on:\n  schedule:\n    - cron: '* * * * *'\njobs:\n  j:\n    runs-on: linux\n    steps:\n      - run: echo tick\n"})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	count := func() int {
		var runs struct {
			Total int `json:"total_count"`
		}
		n.JSON("GET", repo+"/actions/runs?event=schedule", alice, nil, http.StatusOK, &runs)
		return runs.Total
	}
	deadline := time.Now().Add(80 * time.Second)
	for time.Now().Before(deadline) && count() == 0 {
		time.Sleep(500 * time.Millisecond)
	}
	if count() != 1 {
		t.Fatalf("%d scheduled runs after the first minute, want 1", count())
	}
	// Within the same minute it does not fire again.
	time.Sleep(6 * time.Second)
	if c := count(); c != 1 {
		t.Fatalf("%d scheduled runs within a minute, want 1", c)
	}
}

// A pull request's failing job is a failing required check: branch
// protection refuses the merge; its re-run passes and the merge goes
// through.
func TestAFailingJobBlocksTheMergeUntilItsRerunPasses(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	repo := newRepo(n, alice, "gate")
	tok := runnerToken(n, alice, repo)
	r := register(t, n, tok, "linux:host")
	dir := n.Clone(n.Remote(alice, alice.Name(), "gate"))
	n.Commit(dir, "ci", map[string]string{".gitea/workflows/pr.yml": "name: PR\non: pull_request\njobs:\n  test:\n    runs-on: linux\n    steps:\n      - run: make test\n"})
	n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	n.JSON("POST", repo+"/branch_protections", alice, map[string]any{"rule_name": "main", "branch_name": "main",
		"enable_status_check": true, "status_check_contexts": []string{"PR / test (pull_request)"}}, http.StatusCreated, nil)
	n.Git(dir, "checkout", "--quiet", "-b", "feature")
	n.Commit(dir, "feature", map[string]string{"f.txt": "x"})
	n.Git(dir, "push", "--quiet", "origin", "feature")
	n.JSON("POST", repo+"/pulls", alice, map[string]any{"head": "feature", "base": "main", "title": "Feature"}, http.StatusCreated, nil)

	task := r.fetch(30 * time.Second)
	if task == nil {
		t.Fatal("the pull request's job was not handed out")
	}
	r.finish(task, runnerv1.Result_RESULT_FAILURE, "FAIL")
	merge := func() Response {
		return Response(n.Call("POST", repo+"/pulls/1/merge", alice, map[string]any{"Do": "merge"}))
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(string(merge().Body), "failure") {
		time.Sleep(300 * time.Millisecond) // until the failure status is on chain
	}
	if res := merge(); res.Status != http.StatusMethodNotAllowed || !strings.Contains(string(res.Body), "PR / test (pull_request)") {
		t.Fatalf("merge with a failing required job: %d %s", res.Status, res.Body)
	}

	var runs struct {
		Runs []struct{ ID int64 } `json:"workflow_runs"`
	}
	n.JSON("GET", repo+"/actions/runs?event=pull_request", alice, nil, http.StatusOK, &runs)
	n.JSON("POST", repo+"/actions/runs/"+strconv.FormatInt(runs.Runs[0].ID, 10)+"/rerun-failed-jobs", alice, nil, http.StatusCreated, nil)
	again := r.fetch(30 * time.Second)
	if again == nil {
		t.Fatal("the re-run's job was not handed out")
	}
	r.finish(again, runnerv1.Result_RESULT_SUCCESS, "ok")
	deadline = time.Now().Add(30 * time.Second)
	res := merge()
	for time.Now().Before(deadline) && res.Status != http.StatusOK {
		time.Sleep(300 * time.Millisecond)
		res = merge()
	}
	if res.Status != http.StatusOK {
		t.Fatalf("merge after the re-run passed: %d %s", res.Status, res.Body)
	}
}

// Response is a call's answer.
type Response = forgetest.Response

// A job's own concurrency group: the group's jobs go out one at a time,
// oldest first, while jobs outside it and other groups (each matrix
// value its own here) run beside them; with cancel-in-progress a newer
// run cancels the group's job of an older run, and its runner is told.
func TestJobConcurrencyGroups(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	repo := newRepo(n, alice, "jc")
	r := register(t, n, runnerToken(n, alice, repo), "linux:host")
	dir := n.Clone(n.Remote(alice, alice.Name(), "jc"))
	push := func(files map[string]string) {
		n.Commit(dir, "change", files)
		n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
	}
	// ready lists what the runner is given now, by job name.
	ready := func(within time.Duration) map[string]*runnerv1.Task {
		got := map[string]*runnerv1.Task{}
		for task := r.fetch(within); task != nil; task = r.fetch(2 * time.Second) {
			got[taskName(t, task)] = task
		}
		return got
	}
	names := func(m map[string]*runnerv1.Task) string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return strings.Join(out, ", ")
	}

	queued := `on: push
jobs:
  lint:
    runs-on: linux
    steps:
      - run: echo lint
  deploy:
    runs-on: linux
    strategy:
      matrix:
        n: [1, 2]
    concurrency: deploy-${{ matrix.n }}
    steps:
      - run: echo deploy
`
	push(map[string]string{".gitea/workflows/q.yml": queued})
	older := ready(30 * time.Second)
	if got := names(older); got != "deploy (1), deploy (2), lint" {
		t.Fatalf("the first run's jobs given out: %s", got)
	}
	push(map[string]string{"a": "1"})
	if got := names(ready(10 * time.Second)); got != "lint" {
		t.Fatalf("with the older run's deploys running, the newer run gave out: %s", got)
	}
	r.finish(older["deploy (1)"], runnerv1.Result_RESULT_SUCCESS)
	if got := names(ready(10 * time.Second)); got != "deploy (1)" {
		t.Fatalf("once group deploy-1 was free, the runner got: %s", got)
	}

	cancelling := `on: push
jobs:
  release:
    runs-on: linux
    concurrency:
      group: release-${{ github.ref_name }}
      cancel-in-progress: true
    steps:
      - run: echo release
`
	push(map[string]string{".gitea/workflows/q.yml": "on: workflow_dispatch\njobs:\n  x:\n    runs-on: linux\n    steps:\n      - run: echo x\n",
		".gitea/workflows/c.yml": cancelling})
	first := ready(30 * time.Second)
	if got := names(first); got != "release" {
		t.Fatalf("the release run gave out: %s", got)
	}
	push(map[string]string{"a": "2"})
	// The runner of the older release learns at its next update.
	told := runnerv1.Result_RESULT_UNSPECIFIED
	for deadline := time.Now().Add(30 * time.Second); told != runnerv1.Result_RESULT_CANCELLED && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		res, err := r.client.UpdateTask(context.Background(), newReq(r, &runnerv1.UpdateTaskRequest{State: &runnerv1.TaskState{Id: first["release"].Id}}))
		if err != nil {
			t.Fatalf("update the older release: %v", err)
		}
		told = res.Msg.State.Result
	}
	if told != runnerv1.Result_RESULT_CANCELLED {
		t.Fatalf("the older release's runner was told %v, want cancelled", told)
	}
	if got := names(ready(30 * time.Second)); got != "release" {
		t.Fatalf("the newer release run gave out: %s", got)
	}
	var runs struct {
		Runs []struct{ State string } `json:"workflow_runs"`
	}
	n.JSON("GET", repo+"/actions/runs?workflow=c.yml", alice, nil, http.StatusOK, &runs)
	if len(runs.Runs) != 2 || runs.Runs[0].State != "running" || runs.Runs[1].State != "cancelled" {
		t.Fatalf("release runs, newest first: %+v", runs.Runs)
	}

	// An expression the parser refuses fails the run with its message.
	push(map[string]string{".gitea/workflows/c.yml": "on: push\njobs:\n  bad:\n    runs-on: linux\n    concurrency: ${{ fromJSON( }}\n    steps:\n      - run: echo bad\n"})
	var bad struct {
		Runs []struct {
			State, Error string
		} `json:"workflow_runs"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		n.JSON("GET", repo+"/actions/runs?workflow=c.yml", alice, nil, http.StatusOK, &bad)
		if len(bad.Runs) == 3 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(bad.Runs) != 3 || bad.Runs[0].State != "failure" || !strings.Contains(bad.Runs[0].Error, "invalid concurrency of job bad") {
		t.Fatalf("the run of a job with a broken concurrency: %+v", bad.Runs)
	}
}

// taskName is a task's job name as the run page shows it: "deploy (1)"
// for a matrix's.
func taskName(t *testing.T, task *runnerv1.Task) string {
	t.Helper()
	var wf struct {
		Jobs map[string]struct{ Name string } `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(task.WorkflowPayload, &wf); err != nil || len(wf.Jobs) != 1 {
		t.Fatalf("read the task's payload: %v\n%s", err, task.WorkflowPayload)
	}
	for key, j := range wf.Jobs {
		if j.Name != "" {
			return j.Name
		}
		return key
	}
	return ""
}
