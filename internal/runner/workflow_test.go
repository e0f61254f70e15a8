// Workflow features run end to end with act in host mode: local actions from
// a clone of the repository, env levels, if:. Left out of
// race builds for the reason act_test.go gives.

//go:build !race

package runner

import (
	"context"
	"io"
	"log/slog"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"github.com/dforge/dforge/internal/longtest"
)

// The job gets its repository with git, from the forge the runner serves
// (act's GITHUB_SERVER_URL): the runner has no network to github.com, so no
// actions/checkout.
const localActionsWorkflow = `name: ci
on: push
env:
  LEVEL_W: workflow
  SHADOW: workflow
jobs:
  build:
    runs-on: self-hosted
    env:
      LEVEL_J: job
      SHADOW: job
    outputs:
      said: ${{ steps.greet.outputs.said }}
      echoed: ${{ steps.js.outputs.echoed }}
    steps:
      - run: git clone -q "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY" . && git log --format='cloned %s'
      - id: greet
        uses: ./.github/actions/greet
        with:
          who: dforge
      - id: js
        uses: ./.github/actions/js
        with:
          word: bonjour
      - run: echo "then ${{ steps.greet.outputs.said }} and ${{ steps.js.outputs.echoed }}"
      - if: ${{ env.LEVEL_J != 'job' }}
        run: echo should-not-run
      - env:
          LEVEL_S: step
          SHADOW: step
        run: echo "levels $LEVEL_W $LEVEL_J $LEVEL_S, shadow $SHADOW"
`

const greetAction = `name: greet
inputs:
  who:
    description: whom to greet
    required: true
outputs:
  said:
    value: ${{ steps.say.outputs.said }}
runs:
  using: composite
  steps:
    - id: say
      shell: bash
      run: |
        echo "composite greets ${{ inputs.who }}"
        echo "said=hello-${{ inputs.who }}" >> "$GITHUB_OUTPUT"
`

const jsAction = `name: js
inputs:
  word:
    required: true
outputs:
  echoed: {}
runs:
  using: node20
  main: index.js
`

const jsIndex = `const fs = require('fs');
const word = process.env.INPUT_WORD;
console.log('node ' + process.version + ' echoes ' + word);
fs.appendFileSync(process.env.GITHUB_OUTPUT, 'echoed=' + word + '-from-node\n');
`

// A fraction of a minute, which act alone would ignore: the runner rounds it up.
const stepTimeoutWorkflow = `name: ci
on: push
jobs:
  build:
    runs-on: self-hosted
    steps:
      - run: echo before
      - timeout-minutes: 0.05
        run: echo sleeping; sleep 90
      - run: echo never
      - if: always()
        run: echo cleaning up
`

// TestAStepsTimeoutFailsTheJob runs a step that sleeps past its
// timeout-minutes: it is killed after a minute, the job fails, and the log
// says why.
func TestAStepsTimeoutFailsTheJob(t *testing.T) {
	longtest.Mark(t, "waits a minute for a step's timeout")
	t.Parallel()
	f, url := newFakeForge(t)
	f.enqueue(task(t, 1, stepTimeoutWorkflow, nil, nil))
	started := time.Now()
	runTasks(t, f, url, 1)
	took := time.Since(started)

	r := f.report(1)
	log := strings.Join(r.lines, "\n")
	ok, failed, skipped := runnerv1.Result_RESULT_SUCCESS, runnerv1.Result_RESULT_FAILURE, runnerv1.Result_RESULT_SKIPPED
	if r.state.GetResult() != failed {
		t.Errorf("task: %v, want failure; log:\n%s", r.state.GetResult(), log)
	}
	if got, want := r.results(), []runnerv1.Result{ok, failed, skipped, ok}; !slices.Equal(got, want) {
		t.Errorf("steps %v, want %v; log:\n%s", got, want, log)
	}
	if !hasLine(r.lines, "step 2: timeout-minutes 0.05 is rounded up to 1") {
		t.Errorf("the log does not say the timeout was rounded up:\n%s", log)
	}
	if l := r.stepLines(1); !hasLine(l, "sleeping") || !hasLine(l, "the step exceeded its timeout-minutes (1m0s)") {
		t.Errorf("the step that ran out of time shows %q", l)
	}
	if !hasLine(r.stepLines(3), "cleaning up") {
		t.Errorf("the always() step shows %q", r.stepLines(3))
	}
	if took > 85*time.Second {
		t.Errorf("the job took %s: its step's sleep of 90 s was not stopped at a minute", took)
	}
}

// TestLocalActionsFromAClone runs a job that clones its repository from the
// forge's git HTTP and uses a composite and a node20 action from it.
func TestLocalActionsFromAClone(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not installed: the runner's JavaScript actions need it: %v", err)
	}
	f, url := newFakeForge(t)
	serveRepo(t, f, "alice/app", map[string]string{
		".github/actions/greet/action.yml": greetAction,
		".github/actions/js/action.yml":    jsAction,
		".github/actions/js/index.js":      jsIndex,
	})
	f.enqueue(task(t, 1, localActionsWorkflow, nil, nil))
	runTasks(t, f, url, 1)

	r := f.report(1)
	log := strings.Join(r.lines, "\n")
	if r.state.GetResult() != runnerv1.Result_RESULT_SUCCESS {
		t.Fatalf("task 1: %v, want success; log:\n%s", r.state.GetResult(), log)
	}
	ok, skipped := runnerv1.Result_RESULT_SUCCESS, runnerv1.Result_RESULT_SKIPPED
	if got, want := r.results(), []runnerv1.Result{ok, ok, ok, ok, skipped, ok}; !slices.Equal(got, want) {
		t.Errorf("steps %v, want %v (the if: skips the fifth); log:\n%s", got, want, log)
	}
	for i, want := range map[int]string{
		0: "cloned the actions",
		1: "composite greets dforge",
		2: " echoes bonjour",
		3: "then hello-dforge and bonjour-from-node",
		5: "levels workflow job step, shadow step",
	} {
		if l := r.stepLines(i); !hasLine(l, want) {
			t.Errorf("step %d shows %q, want a line %q", i, l, want)
		}
	}
	if hasLine(r.lines, "should-not-run") && !hasLine(r.lines, "echo should-not-run") {
		t.Errorf("the skipped step ran:\n%s", log)
	}
	if r.outputs["said"] != "hello-dforge" || r.outputs["echoed"] != "bonjour-from-node" {
		t.Errorf("job outputs %v, want said=hello-dforge echoed=bonjour-from-node", r.outputs)
	}
}

// runTasks runs a host-mode runner until the forge has the tasks' results.
func runTasks(t *testing.T, f *fakeForge, url string, ids ...int64) {
	t.Helper()
	runTasksOn(t, f, url, []string{"self-hosted:host"}, ids...)
}

// runTasksOn runs a runner of labels until the forge has the tasks' results.
func runTasksOn(t *testing.T, f *fakeForge, url string, labels []string, ids ...int64) {
	t.Helper()
	reg := &Registration{UUID: f.uuid, Token: f.token, Address: url, Name: "r1", Labels: labels}
	ctx, cancel := context.WithCancel(context.Background())
	runErr := make(chan error, 1)
	go func() {
		runErr <- Run(ctx, reg, Options{Workdir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), PollInterval: 50 * time.Millisecond})
	}()
	defer func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	for left := slices.Clone(ids); len(left) > 0; {
		select {
		case id := <-f.done:
			left = slices.DeleteFunc(left, func(l int64) bool { return l == id })
		case <-time.After(90 * time.Second):
			t.Fatalf("tasks %v never finished", left)
		}
	}
}

// serveRepo commits files to a bare repository and serves it read-only at
// /<full>, as a forge serves a public repository, with git's own HTTP backend.
func serveRepo(t *testing.T, f *fakeForge, full string, files map[string]string) {
	t.Helper()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	for name, body := range files {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bare := filepath.Join(root, "srv", full)
	git := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(work, "init", "-q", "-b", "main")
	git(work, "add", ".")
	git(work, "commit", "-q", "-m", "the actions")
	git(root, "clone", "-q", "--bare", work, bare)
	backend, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	f.mux.Handle("/"+full+"/", &cgi.Handler{
		Path: backend, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + filepath.Join(root, "srv"), "GIT_HTTP_EXPORT_ALL=1"},
	})
}
