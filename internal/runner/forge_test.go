package runner

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

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
	t   *testing.T
	mux *http.ServeMux // the forge's routes; a test may add a repository's

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
	f.mux = mux
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
