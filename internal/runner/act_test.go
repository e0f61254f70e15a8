// These tests run jobs with act in host mode. They are left out of race
// builds: act's host environment races with itself (pkg/container,
// host_environment.go: exec sets ptyWriter.AutoStop while the goroutine copying
// the pty's output reads it), which the race detector reports for any step
// that prints. The reporter's own concurrency is raced in runner_test.go.

//go:build !race

package runner

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
)

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
		task(t, 5, "jobs: [", nil, nil),
	)
	workdir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	runErr := make(chan error, 1)
	go func() {
		runErr <- Run(ctx, reg, Options{Workdir: workdir, Version: "test-version", Log: log, PollInterval: 50 * time.Millisecond})
	}()

	started := time.Now()
	finished := map[int64]time.Duration{}
	for len(finished) < 5 {
		select {
		case id := <-f.done:
			finished[id] = time.Since(started)
		case err := <-runErr:
			t.Fatalf("Run returned early: %v", err)
		case <-time.After(90 * time.Second):
			t.Fatalf("tasks finished: %v, want 1 to 5", finished)
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

	malformed := f.report(5)
	if malformed.state.GetResult() != runnerv1.Result_RESULT_FAILURE || !hasLine(malformed.lines, "read the workflow: ") {
		t.Errorf("task 5 (malformed YAML): %v, want a failure with the parser's message; log:\n%s", malformed.state.GetResult(), strings.Join(malformed.lines, "\n"))
	}
}

// TestRunnerCapacityAndShutdown runs two tasks at once with --capacity 2, and
// leaves a third queued; stopping the runner stops both jobs and reports them.
func TestRunnerCapacityAndShutdown(t *testing.T) {
	f, url := newFakeForge(t)
	reg := &Registration{UUID: f.uuid, Token: f.token, Address: url, Name: "r2", Labels: []string{"linux"}}
	for id := int64(1); id <= 3; id++ {
		f.enqueue(task(t, id, fmt.Sprintf(sleepWorkflow, ""), nil, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runErr := make(chan error, 1)
	go func() {
		runErr <- Run(ctx, reg, Options{Capacity: 2, Workdir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), PollInterval: 50 * time.Millisecond})
	}()

	running := func(id int64) bool { return hasLine(f.report(id).lines, "started") }
	for deadline := time.Now().Add(30 * time.Second); !running(1) || !running(2); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("two tasks never ran together: %q / %q", f.report(1).lines, f.report(2).lines)
		}
	}
	time.Sleep(300 * time.Millisecond) // several poll intervals: the third must stay queued
	f.mu.Lock()
	queued := len(f.queue)
	f.mu.Unlock()
	if queued != 1 {
		t.Errorf("%d tasks queued while two run, want 1", queued)
	}

	stopped := time.Now()
	cancel()
	if err := <-runErr; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if d := time.Since(stopped); d > 10*time.Second {
		t.Errorf("the runner took %s to stop", d)
	}
	for id := int64(1); id <= 2; id++ {
		r := f.report(id)
		if r.state.GetResult() != runnerv1.Result_RESULT_FAILURE || !hasLine(r.lines, "the runner stopped during the job") {
			t.Errorf("task %d after shutdown: %v\n%s", id, r.state.GetResult(), strings.Join(r.lines, "\n"))
		}
	}
}
