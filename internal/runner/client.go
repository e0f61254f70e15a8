package runner

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/connect"
	pingv1connect "gitea.dev/actions-proto-go/ping/v1/pingv1connect"
	runnerv1connect "gitea.dev/actions-proto-go/runner/v1/runnerv1connect"
)

// The headers that carry a registered runner's credentials, as act_runner
// sends them.
const (
	headerRunnerUUID  = "x-runner-uuid"
	headerRunnerToken = "x-runner-token"
)

// apiPath is where a forge serves the runner protocol (Gitea's mount point).
const apiPath = "/api/actions"

// client speaks Gitea's runner protocol to one forge.
type client struct {
	runnerv1connect.RunnerServiceClient
	ping pingv1connect.PingServiceClient
}

// newClient builds the clients for the forge at address; uuid and token are
// empty before registration.
func newClient(address, uuid, token string) *client {
	base := strings.TrimSuffix(address, "/") + apiPath
	// No overall timeout: FetchTask may be held open by a server that long-polls.
	// Requests are bounded by their contexts instead.
	hc := &http.Client{Transport: http.DefaultTransport}
	opts := []connect.ClientOption{connect.WithInterceptors(credentials(uuid, token))}
	return &client{
		RunnerServiceClient: runnerv1connect.NewRunnerServiceClient(hc, base, opts...),
		ping:                pingv1connect.NewPingServiceClient(hc, base, opts...),
	}
}

func credentials(uuid, token string) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			if uuid != "" {
				req.Header().Set(headerRunnerUUID, uuid)
				req.Header().Set(headerRunnerToken, token)
			}
			return next(ctx, req)
		}
	}
}

// transient tells whether a call that failed with err may succeed if tried
// again: the network, a restarting forge, a busy one.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	switch connect.CodeOf(err) {
	case connect.CodeUnavailable, connect.CodeDeadlineExceeded, connect.CodeResourceExhausted,
		connect.CodeAborted, connect.CodeInternal, connect.CodeUnknown:
		return true
	}
	return false
}

// retry calls fn until it succeeds, fails for good, or attempts are spent,
// waiting longer each time (100 ms doubling, at most 2 s).
func retry(ctx context.Context, attempts int, fn func(context.Context) error) error {
	wait := 100 * time.Millisecond
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil || !transient(err) {
			return err
		}
		if i == attempts-1 {
			break
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
	return err
}
