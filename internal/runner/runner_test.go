package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	pingv1 "gitea.dev/actions-proto-go/ping/v1"
	"gitea.dev/actions-proto-go/ping/v1/pingv1connect"
	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"gitea.dev/actions-proto-go/runner/v1/runnerv1connect"
	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// fakeForge is a test double of the forge's side of the runner protocol: it
// hands out the tasks queued in it and records what the runner reports.
type fakeForge struct {
	t *testing.T

	mu          sync.Mutex
	regToken    string
	uuid, token string
	registered  *runnerv1.RegisterRequest
	declared    *runnerv1.DeclareRequest
	queue       []*runnerv1.Task
	version     int64
	seenVersion []int64
	logs        map[int64][]*runnerv1.LogRow
	noMore      map[int64]bool
	states      map[int64]*runnerv1.TaskState
	outputs     map[int64]map[string]string
	cancel      map[int64]bool // cancel these once their first step starts
	failLog     bool           // fail the next UpdateLog as a restarting forge would
	failedLogs  int
	done        chan int64
}

func init() {
	// act logs its progress to logrus' standard logger; the job logs are what
	// the tests read.
	logrus.SetLevel(logrus.WarnLevel)
}

func newFakeForge(t *testing.T) (*fakeForge, string) {
	f := &fakeForge{
		t: t, regToken: "reg-token", uuid: "runner-uuid", token: "runner-token",
		logs: map[int64][]*runnerv1.LogRow{}, noMore: map[int64]bool{}, states: map[int64]*runnerv1.TaskState{},
		outputs: map[int64]map[string]string{}, cancel: map[int64]bool{}, done: make(chan int64, 16),
	}
	mux := http.NewServeMux()
	p, h := runnerv1connect.NewRunnerServiceHandler(f)
	mux.Handle(apiPath+p, http.StripPrefix(apiPath, h))
	p, h = pingv1connect.NewPingServiceHandler(f)
	mux.Handle(apiPath+p, http.StripPrefix(apiPath, h))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func (f *fakeForge) Ping(_ context.Context, req *connect.Request[pingv1.PingRequest]) (*connect.Response[pingv1.PingResponse], error) {
	return connect.NewResponse(&pingv1.PingResponse{Data: "Hello, " + req.Msg.GetData()}), nil
}

func (f *fakeForge) auth(h http.Header) error {
	if h.Get("x-runner-uuid") != f.uuid || h.Get("x-runner-token") != f.token {
		return connect.NewError(connect.CodeUnauthenticated, errors.New("unregistered runner"))
	}
	return nil
}

func (f *fakeForge) Register(_ context.Context, req *connect.Request[runnerv1.RegisterRequest]) (*connect.Response[runnerv1.RegisterResponse], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if req.Msg.GetToken() != f.regToken {
		return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("bad registration token"))
	}
	f.registered = req.Msg
	return connect.NewResponse(&runnerv1.RegisterResponse{Runner: &runnerv1.Runner{
		Id: 3, Uuid: f.uuid, Token: f.token, Name: req.Msg.GetName(), Labels: req.Msg.GetLabels(),
	}}), nil
}

func (f *fakeForge) Declare(_ context.Context, req *connect.Request[runnerv1.DeclareRequest]) (*connect.Response[runnerv1.DeclareResponse], error) {
	if err := f.auth(req.Header()); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.declared = req.Msg
	return connect.NewResponse(&runnerv1.DeclareResponse{Runner: &runnerv1.Runner{Uuid: f.uuid, Labels: req.Msg.GetLabels()}}), nil
}

func (f *fakeForge) FetchTask(_ context.Context, req *connect.Request[runnerv1.FetchTaskRequest]) (*connect.Response[runnerv1.FetchTaskResponse], error) {
	if err := f.auth(req.Header()); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seenVersion = append(f.seenVersion, req.Msg.GetTasksVersion())
	resp := &runnerv1.FetchTaskResponse{TasksVersion: f.version}
	// Gitea's shortcut: a runner that has seen the latest version gets nothing.
	if req.Msg.GetTasksVersion() != f.version && len(f.queue) > 0 {
		resp.Task, f.queue = f.queue[0], f.queue[1:]
	}
	return connect.NewResponse(resp), nil
}

func (f *fakeForge) enqueue(tasks ...*runnerv1.Task) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue = append(f.queue, tasks...)
	f.version++
}

func (f *fakeForge) UpdateLog(_ context.Context, req *connect.Request[runnerv1.UpdateLogRequest]) (*connect.Response[runnerv1.UpdateLogResponse], error) {
	if err := f.auth(req.Header()); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failLog {
		f.failLog = false
		f.failedLogs++
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("restarting"))
	}
	id := req.Msg.GetTaskId()
	have := int64(len(f.logs[id]))
	if req.Msg.GetIndex() > have {
		f.t.Errorf("task %d: log from line %d, but the forge has %d lines: a gap", id, req.Msg.GetIndex(), have)
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("gap"))
	}
	if skip := have - req.Msg.GetIndex(); skip < int64(len(req.Msg.GetRows())) {
		f.logs[id] = append(f.logs[id], req.Msg.GetRows()[skip:]...)
	}
	if req.Msg.GetNoMore() {
		f.noMore[id] = true
	}
	return connect.NewResponse(&runnerv1.UpdateLogResponse{AckIndex: int64(len(f.logs[id]))}), nil
}

func (f *fakeForge) UpdateTask(_ context.Context, req *connect.Request[runnerv1.UpdateTaskRequest]) (*connect.Response[runnerv1.UpdateTaskResponse], error) {
	if err := f.auth(req.Header()); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	st := req.Msg.GetState()
	id := st.GetId()
	prev := f.states[id]
	f.states[id] = proto.Clone(st).(*runnerv1.TaskState)
	if f.outputs[id] == nil {
		f.outputs[id] = map[string]string{}
	}
	for k, v := range req.Msg.GetOutputs() {
		f.outputs[id][k] = v
	}
	resp := &runnerv1.UpdateTaskResponse{State: &runnerv1.TaskState{Id: id, Result: st.GetResult()}}
	for k := range f.outputs[id] {
		resp.SentOutputs = append(resp.SentOutputs, k)
	}
	if f.cancel[id] && len(st.GetSteps()) > 0 && st.GetSteps()[0].GetStartedAt() != nil {
		resp.State.Result = runnerv1.Result_RESULT_CANCELLED
	}
	if st.GetResult() != runnerv1.Result_RESULT_UNSPECIFIED && prev.GetResult() == runnerv1.Result_RESULT_UNSPECIFIED {
		if !f.noMore[id] {
			f.t.Errorf("task %d: final state before the end of its log", id)
		}
		f.done <- id
	}
	return connect.NewResponse(resp), nil
}

// report is what the forge holds of one task.
type report struct {
	state   *runnerv1.TaskState
	lines   []string
	outputs map[string]string
}

func (f *fakeForge) report(id int64) report {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := report{state: f.states[id], outputs: f.outputs[id]}
	for _, row := range f.logs[id] {
		r.lines = append(r.lines, row.GetContent())
	}
	return r
}

// stepLines are the lines the forge shows under step i.
func (r report) stepLines(i int) []string {
	s := r.state.GetSteps()[i]
	end := min(int(s.GetLogIndex()+s.GetLogLength()), len(r.lines))
	return r.lines[s.GetLogIndex():end]
}

func (r report) results() []runnerv1.Result {
	var out []runnerv1.Result
	for _, s := range r.state.GetSteps() {
		out = append(out, s.GetResult())
	}
	return out
}

func hasLine(lines []string, sub string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, sub) })
}

func task(t *testing.T, id int64, workflow string, secrets map[string]string, needs map[string]*runnerv1.TaskNeed) *runnerv1.Task {
	t.Helper()
	ctx, err := structpb.NewStruct(map[string]any{
		"event_name": "push", "ref": "refs/heads/main", "ref_name": "main", "ref_type": "branch",
		"sha": "0123456789abcdef0123456789abcdef01234567", "repository": "alice/app", "repository_owner": "alice",
		"actor": "alice", "run_id": "12", "run_number": "4", "run_attempt": "1", "job": "build",
		"token": "task-token-value",
		"event": map[string]any{"ref": "refs/heads/main", "repository": map[string]any{"full_name": "alice/app", "default_branch": "main"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &runnerv1.Task{Id: id, WorkflowPayload: []byte(workflow), Context: ctx, Secrets: secrets, Needs: needs,
		Vars: map[string]string{"GREETING": "hello"}}
}

const okWorkflow = `name: ci
on: push
jobs:
  build:
    runs-on: self-hosted
    outputs:
      greeting: ${{ steps.out.outputs.greeting }}
    steps:
      - run: echo ${{ vars.GREETING }}
      - run: |
          echo "secret is ${{ secrets.MY_SECRET }}"
          echo "::add-mask::hidden-word"
          echo "the word is hidden-word"
          echo "setup said ${{ needs.setup.outputs.v }} (${{ needs.setup.result }})"
      - id: out
        run: |
          echo "greeting=hi-${{ github.ref_name }}" >> "$GITHUB_OUTPUT"
          echo "workspace $GITHUB_WORKSPACE, in $PWD"
`

const failWorkflow = `name: ci
on: push
jobs:
  build:
    runs-on: self-hosted
    steps:
      - run: echo hello
      - run: exit 1
      - run: echo never
`

const sleepWorkflow = `name: ci
on: push
jobs:
  build:
    runs-on: self-hosted
    %s
    steps:
      - run: echo started; sleep 20
`

// TestRunnerRunsTasks registers a host-mode runner with a fake forge, lets it
// run real jobs with act and checks what reached the forge.
func TestRunnerRunsTasks(t *testing.T) {
	f, url := newFakeForge(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	if _, err := Register(ctx, url, "wrong", "r1", []string{"self-hosted:host"}, "test"); connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Fatalf("register with a bad token: %v, want unauthenticated", err)
	}
	reg, err := Register(ctx, url, f.regToken, "r1", []string{"self-hosted:host"}, "test-version")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.registered; got.GetName() != "r1" || !slices.Equal(got.GetLabels(), []string{"self-hosted"}) || got.GetVersion() != "test-version" {
		t.Fatalf("forge got registration %v", got)
	}
	path := filepath.Join(t.TempDir(), RegistrationFile)
	if err := reg.Save(path); err != nil {
		t.Fatal(err)
	}
	if reg, err = LoadRegistration(path); err != nil {
		t.Fatal(err)
	}
	if reg.UUID != f.uuid || reg.Token != f.token || reg.Address != url || !slices.Equal(reg.Labels, []string{"self-hosted:host"}) {
		t.Fatalf("registration %+v", reg)
	}

	f.failLog = true
	f.cancel[3] = true
	f.enqueue(
		task(t, 1, okWorkflow, map[string]string{"MY_SECRET": "s3cr3t-value"},
			map[string]*runnerv1.TaskNeed{"setup": {Outputs: map[string]string{"v": "42"}, Result: runnerv1.Result_RESULT_SUCCESS}}),
		task(t, 2, failWorkflow, nil, nil),
		task(t, 3, fmt.Sprintf(sleepWorkflow, ""), nil, nil),
		task(t, 4, fmt.Sprintf(sleepWorkflow, "timeout-minutes: 0.05"), nil, nil),
	)
	workdir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	runErr := make(chan error, 1)
	go func() {
		runErr <- Run(ctx, reg, Options{Workdir: workdir, Version: "test-version", Log: log, PollInterval: 50 * time.Millisecond})
	}()

	started := time.Now()
	finished := map[int64]time.Duration{}
	for len(finished) < 4 {
		select {
		case id := <-f.done:
			finished[id] = time.Since(started)
		case err := <-runErr:
			t.Fatalf("Run returned early: %v", err)
		case <-time.After(90 * time.Second):
			t.Fatalf("tasks finished: %v, want 1 to 4", finished)
		}
	}
	// Idle now, the runner sends back the version the forge gave it.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		f.mu.Lock()
		seen := slices.Contains(f.seenVersion, f.version)
		f.mu.Unlock()
		if seen || time.Now().After(deadline) {
			break
		}
	}
	cancel()
	if err := <-runErr; err != nil {
		t.Fatalf("Run: %v", err)
	}

	f.mu.Lock()
	if got := f.declared; !slices.Equal(got.GetLabels(), []string{"self-hosted"}) || got.GetVersion() != "test-version" {
		t.Errorf("declared %v", got)
	}
	if !slices.Contains(f.seenVersion, f.version) {
		t.Errorf("the runner never sent back the tasks version %d: %v", f.version, f.seenVersion)
	}
	if f.failedLogs != 1 {
		t.Errorf("failed log uploads %d, want 1", f.failedLogs)
	}
	f.mu.Unlock()

	ok := f.report(1)
	if ok.state.GetResult() != runnerv1.Result_RESULT_SUCCESS {
		t.Errorf("task 1: %v, want success; log:\n%s", ok.state.GetResult(), strings.Join(ok.lines, "\n"))
	}
	if got, want := ok.results(), []runnerv1.Result{1, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("task 1 steps %v, want %v", got, want)
	}
	if l := ok.stepLines(0); !slices.Contains(l, "hello") {
		t.Errorf("step 0 of task 1 shows %q, want the line hello", l)
	}
	second := ok.stepLines(1)
	for _, want := range []string{"secret is ***", "the word is ***", "setup said 42 (success)"} {
		if !hasLine(second, want) {
			t.Errorf("step 1 of task 1 lacks %q: %q", want, second)
		}
	}
	for _, leak := range []string{"s3cr3t-value", "hidden-word", "task-token-value"} {
		if hasLine(ok.lines, leak) {
			t.Errorf("the log shows %q", leak)
		}
	}
	if ok.outputs["greeting"] != "hi-main" {
		t.Errorf("task 1 outputs %v, want greeting=hi-main", ok.outputs)
	}
	// Host mode: the job ran in this runner's work directory, which is left empty.
	if l := ok.stepLines(2); !hasLine(l, "workspace "+workdir+"/task-1/") || !hasLine(l, ", in "+workdir+"/task-1/") {
		t.Errorf("step 2 of task 1 ran outside %s: %q", workdir, l)
	}
	if left, err := os.ReadDir(workdir); err != nil || len(left) > 0 {
		t.Errorf("the work directory keeps %v (%v)", left, err)
	}
	if ok.state.GetStartedAt() == nil || ok.state.GetStoppedAt() == nil {
		t.Errorf("task 1 state lacks its times: %v", ok.state)
	}

	failed := f.report(2)
	if failed.state.GetResult() != runnerv1.Result_RESULT_FAILURE {
		t.Errorf("task 2: %v, want failure", failed.state.GetResult())
	}
	if got, want := failed.results(), []runnerv1.Result{1, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("task 2 steps %v, want success, failure, skipped", got)
	}
	if !slices.Contains(failed.stepLines(0), "hello") || hasLine(failed.lines, "never") && !hasLine(failed.lines, "echo never") {
		t.Errorf("task 2 log:\n%s", strings.Join(failed.lines, "\n"))
	}

	cancelled := f.report(3)
	if cancelled.state.GetResult() != runnerv1.Result_RESULT_CANCELLED {
		t.Errorf("task 3: %v, want cancelled", cancelled.state.GetResult())
	}
	if !hasLine(cancelled.lines, "started") {
		t.Errorf("task 3 never started: %q", cancelled.lines)
	}
	if d := finished[3] - finished[2]; d > 15*time.Second {
		t.Errorf("the cancelled task ran %s: its sleep was not stopped", d)
	}

	timedOut := f.report(4)
	if timedOut.state.GetResult() != runnerv1.Result_RESULT_FAILURE || !hasLine(timedOut.lines, "exceeded its timeout") {
		t.Errorf("task 4: %v, want a failure for its timeout; log:\n%s", timedOut.state.GetResult(), strings.Join(timedOut.lines, "\n"))
	}
	if d := finished[4] - finished[3]; d > 15*time.Second {
		t.Errorf("the task with a 3 s timeout ran %s", d)
	}
}

func TestRunRefusesBadCredentials(t *testing.T) {
	_, url := newFakeForge(t)
	reg := &Registration{UUID: "runner-uuid", Token: "stolen", Address: url, Labels: []string{"self-hosted:host"}}
	err := Run(context.Background(), reg, Options{Workdir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Fatalf("Run with a bad token: %v, want unauthenticated", err)
	}
}
