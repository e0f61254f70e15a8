// Package runner is dForge's CI runner: it registers with a forge over
// Gitea's runner protocol, fetches the forge's tasks and runs each job with
// Gitea's act, reporting its log and state as it goes.
package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"connectrpc.com/connect"
	pingv1 "gitea.dev/actions-proto-go/ping/v1"
	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
)

// Options tune Run. The zero value of a field takes its default.
type Options struct {
	// Capacity is how many tasks run at once (default 1).
	Capacity int
	// Workdir holds each task's directory while it runs (default ".runner-work").
	Workdir string
	// PollInterval is the wait between two empty fetches (default 250 ms): a
	// push's job starts within it on an idle runner.
	PollInterval time.Duration
	// JobTimeout bounds a job whose timeout-minutes is unset (default 3 h).
	JobTimeout time.Duration
	// Version is what the runner declares to the forge.
	Version string
	Log     *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Capacity <= 0 {
		o.Capacity = 1
	}
	if o.Workdir == "" {
		o.Workdir = ".runner-work"
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 250 * time.Millisecond
	}
	if o.JobTimeout <= 0 {
		o.JobTimeout = 3 * time.Hour
	}
	if o.Version == "" {
		o.Version = "dforge-runner"
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return o
}

// maxFetchBackoff bounds the wait after failed fetches.
const maxFetchBackoff = 10 * time.Second

// Register registers a runner named name with the labels at the forge at
// address, with a registration token from the forge, and returns the
// registration to Save.
func Register(ctx context.Context, address, token, name string, labels []string, version string) (*Registration, error) {
	ls, err := ParseLabels(labels)
	if err != nil {
		return nil, err
	}
	if name == "" {
		if name, err = os.Hostname(); err != nil {
			return nil, fmt.Errorf("runner name: %w", err)
		}
	}
	c := newClient(address, "", "")
	if _, err := c.ping.Ping(ctx, connect.NewRequest(&pingv1.PingRequest{Data: name})); err != nil {
		return nil, fmt.Errorf("ping %s: %w", address, err)
	}
	resp, err := c.Register(ctx, connect.NewRequest(&runnerv1.RegisterRequest{
		Name:    name,
		Token:   token,
		Version: version,
		Labels:  labelNames(ls),
	}))
	if err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	got := resp.Msg.GetRunner()
	if got.GetUuid() == "" || got.GetToken() == "" {
		return nil, errors.New("register: the forge answered without the runner's uuid and token")
	}
	saved := make([]string, len(ls))
	for i, l := range ls {
		saved[i] = l.String()
	}
	if got.GetName() != "" {
		name = got.GetName()
	}
	return &Registration{
		ID: got.GetId(), UUID: got.GetUuid(), Name: name, Token: got.GetToken(),
		Address: address, Labels: saved,
	}, nil
}

// Run declares the registered runner to its forge, then fetches and runs
// tasks, Capacity at a time, until ctx ends. Tasks still running then are
// stopped and reported failed.
func Run(ctx context.Context, reg *Registration, opts Options) error {
	opts = opts.withDefaults()
	labels, err := ParseLabels(reg.Labels)
	if err != nil {
		return fmt.Errorf("registration labels: %w", err)
	}
	// Jobs see their workspace's path: it must not depend on their directory.
	if opts.Workdir, err = filepath.Abs(opts.Workdir); err != nil {
		return fmt.Errorf("work directory: %w", err)
	}
	if err := os.MkdirAll(opts.Workdir, 0o700); err != nil {
		return fmt.Errorf("create the work directory: %w", err)
	}
	c := newClient(reg.Address, reg.UUID, reg.Token)
	if err := declare(ctx, c, labels, opts); err != nil {
		return err
	}
	warnWithoutDocker(labels, opts.Log)
	x := &execution{client: c, reg: reg, labels: labels, opts: opts}
	opts.Log.Info("runner started", "name", reg.Name, "address", reg.Address, "labels", reg.Labels, "capacity", opts.Capacity)

	var wg sync.WaitGroup
	defer wg.Wait()
	slots := make(chan struct{}, opts.Capacity)
	f := fetcher{client: c, log: opts.Log}
	for {
		select {
		case <-ctx.Done():
			return nil
		case slots <- struct{}{}:
		}
		task, wait := f.fetch(ctx)
		if task == nil {
			<-slots
			if !sleep(ctx, max(wait, opts.PollInterval)) {
				return nil
			}
			continue
		}
		opts.Log.Info("task received", "task", task.GetId())
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			x.run(ctx, task)
		}()
	}
}

func declare(ctx context.Context, c *client, labels []Label, opts Options) error {
	err := retry(ctx, 5, func(ctx context.Context) error {
		_, err := c.Declare(ctx, connect.NewRequest(&runnerv1.DeclareRequest{
			Version: opts.Version,
			Labels:  labelNames(labels),
		}))
		return err
	})
	if connect.CodeOf(err) == connect.CodeUnimplemented {
		// A forge older than Declare keeps the labels given at registration.
		opts.Log.Warn("the forge does not know Declare; it keeps the labels of the registration")
		return nil
	}
	if err != nil {
		return fmt.Errorf("declare: %w", err)
	}
	return nil
}

// fetcher asks the forge for tasks. It keeps the forge's tasks version: while
// it is unchanged the forge has nothing new and answers without a lookup.
type fetcher struct {
	client   *client
	log      *slog.Logger
	version  int64
	failures int
}

// fetch returns a task, or nil and how long to wait before asking again
// (longer after errors).
func (f *fetcher) fetch(ctx context.Context) (*runnerv1.Task, time.Duration) {
	resp, err := f.client.FetchTask(ctx, connect.NewRequest(&runnerv1.FetchTaskRequest{TasksVersion: f.version}))
	if err != nil {
		if ctx.Err() == nil {
			f.failures++
			f.log.Warn("fetch task", "err", err)
		}
		return nil, min(maxFetchBackoff, time.Duration(1<<min(f.failures, 7))*100*time.Millisecond)
	}
	f.failures = 0
	if v := resp.Msg.GetTasksVersion(); v > f.version {
		f.version = v
	}
	task := resp.Msg.GetTask()
	if task == nil {
		return nil, 0
	}
	// With a task in hand, the next fetch must look again whatever the version.
	f.version = 0
	return task, 0
}

// sleep waits d, or less if ctx ends; it tells whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// warnWithoutDocker says so at start when a docker label's jobs cannot run.
func warnWithoutDocker(labels []Label, log *slog.Logger) {
	for _, l := range labels {
		if l.Scheme != SchemeDocker {
			continue
		}
		if os.Getenv("DOCKER_HOST") != "" {
			return
		}
		if _, err := os.Stat("/var/run/docker.sock"); err != nil {
			log.Warn("no Docker daemon found: jobs of docker labels will fail", "label", l.String())
		}
		return
	}
}
