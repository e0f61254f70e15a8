package actions

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	pingv1 "gitea.dev/actions-proto-go/ping/v1"
	"gitea.dev/actions-proto-go/ping/v1/pingv1connect"
	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"gitea.dev/actions-proto-go/runner/v1/runnerv1connect"

	"github.com/dforge/dforge/internal/usererr"
)

// Prefix is where the runner protocol is served, as Gitea serves it.
const Prefix = "/api/actions"

// The headers a registered runner names itself with (act_runner's).
const (
	headerUUID  = "x-runner-uuid"
	headerToken = "x-runner-token"
)

// Handler is Gitea's runner protocol (connect-rpc) under Prefix.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(runnerv1connect.NewRunnerServiceHandler(rpc{s}))
	mux.Handle(pingv1connect.NewPingServiceHandler(rpc{s}))
	mux.HandleFunc("/artifacts/{id}/{verb}", s.serveBlob) // signed URLs (artifacts_rpc.go)
	return http.StripPrefix(Prefix, mux)
}

type rpc struct{ s *Service }

func (rpc) Ping(_ context.Context, req *connect.Request[pingv1.PingRequest]) (*connect.Response[pingv1.PingResponse], error) {
	return connect.NewResponse(&pingv1.PingResponse{Data: "Hello, " + req.Msg.Data + "!"}), nil
}

func (p rpc) Register(ctx context.Context, req *connect.Request[runnerv1.RegisterRequest]) (*connect.Response[runnerv1.RegisterResponse], error) {
	r, tok, err := p.s.register(ctx, req.Msg.Token, req.Msg.Name, req.Msg.Version, req.Msg.Labels)
	if err != nil {
		return nil, p.fail(err)
	}
	return connect.NewResponse(&runnerv1.RegisterResponse{Runner: runnerMsg(r, tok)}), nil
}

func (p rpc) Declare(ctx context.Context, req *connect.Request[runnerv1.DeclareRequest]) (*connect.Response[runnerv1.DeclareResponse], error) {
	r, err := p.runner(ctx, req.Header())
	if err != nil {
		return nil, err
	}
	if r, err = p.s.declare(ctx, r, req.Msg.Version, req.Msg.Labels); err != nil {
		return nil, p.fail(err)
	}
	return connect.NewResponse(&runnerv1.DeclareResponse{Runner: runnerMsg(r, "")}), nil
}

func (p rpc) FetchTask(ctx context.Context, req *connect.Request[runnerv1.FetchTaskRequest]) (*connect.Response[runnerv1.FetchTaskResponse], error) {
	r, err := p.runner(ctx, req.Header())
	if err != nil {
		return nil, err
	}
	t, v, err := p.s.fetchTask(ctx, r, req.Msg.TasksVersion)
	if err != nil {
		return nil, p.fail(err)
	}
	return connect.NewResponse(&runnerv1.FetchTaskResponse{Task: t, TasksVersion: v}), nil
}

func (p rpc) UpdateTask(ctx context.Context, req *connect.Request[runnerv1.UpdateTaskRequest]) (*connect.Response[runnerv1.UpdateTaskResponse], error) {
	r, err := p.runner(ctx, req.Header())
	if err != nil {
		return nil, err
	}
	st, sent, err := p.s.updateTask(ctx, r, req.Msg.State, req.Msg.Outputs)
	if err != nil {
		return nil, p.fail(err)
	}
	return connect.NewResponse(&runnerv1.UpdateTaskResponse{State: st, SentOutputs: sent}), nil
}

func (p rpc) UpdateLog(ctx context.Context, req *connect.Request[runnerv1.UpdateLogRequest]) (*connect.Response[runnerv1.UpdateLogResponse], error) {
	r, err := p.runner(ctx, req.Header())
	if err != nil {
		return nil, err
	}
	ack, err := p.s.updateLog(ctx, r, req.Msg.TaskId, req.Msg.Index, req.Msg.Rows)
	if err != nil {
		return nil, p.fail(err)
	}
	return connect.NewResponse(&runnerv1.UpdateLogResponse{AckIndex: ack}), nil
}

// runner is the registered runner the request's headers name.
func (p rpc) runner(ctx context.Context, h http.Header) (Runner, error) {
	uuid, tok := strings.TrimSpace(h.Get(headerUUID)), strings.TrimSpace(h.Get(headerToken))
	if uuid == "" || tok == "" {
		return Runner{}, connect.NewError(connect.CodeUnauthenticated, errors.New("missing the runner's uuid and token"))
	}
	r, err := p.s.runnerOf(ctx, uuid, tok)
	if err != nil {
		return Runner{}, p.fail(err)
	}
	if err := p.s.seen(ctx, &r); err != nil {
		return Runner{}, p.fail(err)
	}
	return r, nil
}

func runnerMsg(r Runner, token string) *runnerv1.Runner {
	return &runnerv1.Runner{Id: r.ID, Uuid: r.UUID, Token: token, Name: r.Name, Version: r.Version, Labels: r.Labels,
		Status: runnerv1.RunnerStatus_RUNNER_STATUS_IDLE}
}

// rpcError is err with the connect code its kind maps to: a user's error
// keeps its message, anything else is internal and says nothing more.
func rpcError(err error) error {
	ue, ok := usererr.As(err)
	if !ok {
		return connect.NewError(connect.CodeInternal, errors.New("internal error"))
	}
	code := connect.CodeInvalidArgument
	switch ue.Kind {
	case usererr.NotFound:
		code = connect.CodeNotFound
	case usererr.Unauthenticated:
		code = connect.CodeUnauthenticated
	case usererr.Forbidden:
		code = connect.CodePermissionDenied
	case usererr.Conflict:
		code = connect.CodeAlreadyExists
	}
	return connect.NewError(code, errors.New(ue.Message))
}

// fail is rpcError, logging what is not the runner's fault.
func (p rpc) fail(err error) error {
	if _, ok := usererr.As(err); !ok {
		p.s.log.Error("actions: a runner's request failed", "err", err)
	}
	return rpcError(err)
}
