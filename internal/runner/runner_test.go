package runner

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"github.com/nektos/act/pkg/model"
	"github.com/sirupsen/logrus"
)

func TestRunRefusesBadCredentials(t *testing.T) {
	_, url := newFakeForge(t)
	reg := &Registration{UUID: "runner-uuid", Token: "stolen", Address: url, Labels: []string{"self-hosted:host"}}
	err := Run(context.Background(), reg, Options{Workdir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Fatalf("Run with a bad token: %v, want unauthenticated", err)
	}
}

// stepEntry is an entry as act's job logger fires it inside a step's main stage.
func stepEntry(step int, msg string, fields logrus.Fields) *logrus.Entry {
	data := logrus.Fields{"stage": "Main", "stepNumber": step, "raw_output": true}
	for k, v := range fields {
		data[k] = v
	}
	return &logrus.Entry{Data: data, Time: time.Now(), Level: logrus.InfoLevel, Message: msg}
}

// TestReporterStreams fires act's entries from two goroutines at once, as
// act's step and pty goroutines do, while the reporter sends, and checks that
// every line reached the forge once, in order, in batches, with each step's
// range and result.
func TestReporterStreams(t *testing.T) {
	f, url := newFakeForge(t)
	c := newClient(url, f.uuid, f.token)
	tk := &runnerv1.Task{Id: 9, Secrets: map[string]string{"TOKEN": "tok-123"}}
	rep := newReporter(c, tk, newMasker(taskMasks(tk)...), func() {}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	rep.setSteps(3)
	rep.start(context.Background())
	rep.logf("set up")

	const n = 250
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the job's own lines, outside any step, while step 0 prints
		defer wg.Done()
		for i := 0; i < 5; i++ {
			rep.Fire(&logrus.Entry{Data: logrus.Fields{}, Time: time.Now(), Level: logrus.DebugLevel, Message: "debug noise"})
		}
	}()
	for i := 0; i < n; i++ {
		rep.Fire(stepEntry(0, fmt.Sprintf("line %d tok-123\r\n", i), nil))
	}
	wg.Wait()
	// The lines stream while the step runs, before the task ends.
	for deadline := time.Now().Add(5 * time.Second); len(f.report(9).lines) < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s the forge has %d of %d lines", len(f.report(9).lines), n+1)
		}
	}
	rep.Fire(stepEntry(0, "done", logrus.Fields{"stepResult": model.StepStatusSuccess, "raw_output": false}))
	skip := stepEntry(1, "Skipping step", logrus.Fields{"stepResult": model.StepStatusSkipped, "raw_output": false})
	skip.Level = logrus.DebugLevel // as act logs it
	rep.Fire(skip)
	rep.Fire(stepEntry(2, "::add-mask::p%25w", nil))
	rep.Fire(stepEntry(2, "the p%w is p%w", nil))
	rep.Fire(stepEntry(2, "failed", logrus.Fields{"stepResult": model.StepStatusFailure, "raw_output": false}))
	rep.Fire(&logrus.Entry{Data: logrus.Fields{"jobResult": "failure"}, Time: time.Now(), Level: logrus.InfoLevel, Message: "Job failed"})
	rep.setOutputs(map[string]string{"out": "v"})
	if res, _ := rep.result(); res != runnerv1.Result_RESULT_FAILURE {
		t.Errorf("act's job result read as %v", res)
	}
	if err := rep.finish(runnerv1.Result_RESULT_FAILURE, ""); err != nil {
		t.Fatal(err)
	}

	r := f.report(9)
	if r.state.GetResult() != runnerv1.Result_RESULT_FAILURE {
		t.Errorf("result %v", r.state.GetResult())
	}
	if got := r.results(); got[0] != runnerv1.Result_RESULT_SUCCESS || got[1] != runnerv1.Result_RESULT_SKIPPED || got[2] != runnerv1.Result_RESULT_FAILURE {
		t.Errorf("steps %v, want success, skipped, failure", got)
	}
	want := []string{"set up"}
	for i := 0; i < n; i++ {
		want = append(want, fmt.Sprintf("line %d ***", i))
	}
	want = append(want, "done", "the *** is ***", "failed", "Job failed")
	if len(r.lines) != len(want) {
		t.Fatalf("the forge has %d lines, want %d: %q", len(r.lines), len(want), r.lines)
	}
	for i := range want {
		if r.lines[i] != want[i] {
			t.Fatalf("line %d is %q, want %q", i, r.lines[i], want[i])
		}
	}
	if got := r.stepLines(0); len(got) != n+1 || got[0] != "line 0 ***" || got[n] != "done" {
		t.Errorf("step 0 shows %d lines from %q", len(got), got[0])
	}
	if s := r.state.GetSteps()[1]; s.GetLogLength() != 0 || s.GetLogIndex() != int64(n+2) {
		t.Errorf("skipped step 1 at %d+%d, want an empty range at %d", s.GetLogIndex(), s.GetLogLength(), n+2)
	}
	if got := r.stepLines(2); len(got) != 2 || got[1] != "failed" {
		t.Errorf("step 2 shows %q", got)
	}
	if r.outputs["out"] != "v" {
		t.Errorf("outputs %v", r.outputs)
	}
	f.mu.Lock()
	noMore := f.noMore[9]
	f.mu.Unlock()
	if !noMore {
		t.Error("the log was never closed with no_more")
	}
}

func TestParseWorkflow(t *testing.T) {
	needs := map[string]*runnerv1.TaskNeed{
		"lint":  {Outputs: map[string]string{"v": "1"}, Result: runnerv1.Result_RESULT_SUCCESS},
		"build": {Result: runnerv1.Result_RESULT_FAILURE},
	}
	wf, id, err := parseWorkflow(&runnerv1.Task{WorkflowPayload: []byte("on: push\njobs:\n  test:\n    runs-on: x\n    steps:\n      - run: true\n"), Needs: needs})
	if err != nil {
		t.Fatal(err)
	}
	if id != "test" {
		t.Fatalf("job %q", id)
	}
	if got := wf.GetJob("test").Needs(); !slices.Equal(got, []string{"build", "lint"}) {
		t.Errorf("needs %v", got)
	}
	if j := wf.GetJob("lint"); j.Result != "success" || j.Outputs["v"] != "1" {
		t.Errorf("needed job lint: %+v", j)
	}
	if j := wf.GetJob("build"); j.Result != "failure" {
		t.Errorf("needed job build: %+v", j)
	}

	for name, payload := range map[string]string{
		"malformed": "jobs: [",
		"two jobs":  "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: 'true'}]\n  b:\n    runs-on: x\n    steps: [{run: 'true'}]\n",
		"no job":    "on: push\n",
	} {
		if _, _, err := parseWorkflow(&runnerv1.Task{WorkflowPayload: []byte(payload)}); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func TestJobTimeout(t *testing.T) {
	limit := 3 * time.Hour
	cases := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"", limit, false},
		{"10", 10 * time.Minute, false},
		{" 0.5 ", 30 * time.Second, false},
		{"${{ matrix.t }}", limit, true},
		{"-1", limit, true},
	}
	for _, c := range cases {
		got, err := jobTimeout(&model.Job{TimeoutMinutes: c.in}, limit)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("jobTimeout(%q) = %s, %v; want %s, error %v", c.in, got, err, c.want, c.wantErr)
		}
	}
}

func TestStepTimeouts(t *testing.T) {
	job := &model.Job{Steps: []*model.Step{
		{Run: "a"}, {Run: "b", TimeoutMinutes: "2"}, {Run: "c", TimeoutMinutes: " 0.05 "},
		{Run: "d", TimeoutMinutes: "${{ vars.T }}"}, {Run: "e", TimeoutMinutes: "soon"},
	}}
	got, notes := stepTimeouts(job)
	if want := map[int]time.Duration{1: 2 * time.Minute, 2: time.Minute}; !maps.Equal(got, want) {
		t.Errorf("timeouts %v, want %v", got, want)
	}
	// act reads the step's field: a fraction it would ignore is now a whole minute.
	if job.Steps[2].TimeoutMinutes != "1" || job.Steps[3].TimeoutMinutes != "${{ vars.T }}" {
		t.Errorf("steps' timeout-minutes now %q, %q", job.Steps[2].TimeoutMinutes, job.Steps[3].TimeoutMinutes)
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "step 3: timeout-minutes 0.05 is rounded up to 1") || !strings.Contains(notes[1], `step 5: timeout-minutes "soon"`) {
		t.Errorf("notes %q", notes)
	}
}
