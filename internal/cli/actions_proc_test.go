package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
)

const actionsCI = `name: CI
on: [push]
jobs:
  build:
    runs-on: self-hosted
    strategy:
      matrix:
        v: ["a", "b"]
    outputs:
      word: ${{ steps.w.outputs.word }}
    steps:
      - run: echo "hello from ${{ matrix.v }}"
      - id: w
        run: echo "word=ok" >> "$GITHUB_OUTPUT"
  check:
    needs: build
    runs-on: self-hosted
    steps:
      - run: echo "live line"; sleep 3
      - run: test "${{ needs.build.outputs.word }}" = ok && echo "needs ok"
      - run: |
          git -c http.extraHeader="Authorization: Bearer ${{ github.token }}" clone -q "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY" . && git checkout -q "$GITHUB_SHA" && echo "cloned at $(git rev-parse HEAD)"
      - id: greet
        uses: ./.github/actions/greet
        with:
          who: node
      - run: echo "greet said ${{ steps.greet.outputs.said }}"
`

// actionsGreet is a local composite action: the check job clones the
// repository from the node (the runner has no github.com for
// actions/checkout) and uses it.
const actionsGreet = `name: greet
inputs:
  who:
    required: true
outputs:
  said:
    value: ${{ steps.say.outputs.said }}
runs:
  using: composite
  steps:
    - id: say
      shell: bash
      run: echo "said=hello-${{ inputs.who }}" >> "$GITHUB_OUTPUT"
`

const actionsLint = `name: Lint
on: push
jobs:
  lint:
    runs-on: self-hosted
    steps:
      - run: echo "about to fail"; exit 3
`

// startRunner registers a `dforge runner` (a child process, in a work
// directory of its own) with the node at base and runs it until the test
// ends.
func startRunner(t *testing.T, ctx context.Context, base, token string) {
	t.Helper()
	dir := t.TempDir()
	// Gitea's act races on a flag of its pty writer in host mode (its own
	// code, not ours); under -race, the report goes to a file and does not
	// change the runner's exit.
	env := append(withoutDForgeEnv(os.Environ()), childEnv+"=1", "GORACE=exitcode=0 log_path="+filepath.Join(dir, "race"))
	reg := exec.CommandContext(ctx, os.Args[0], "runner", "register", "--url", base, "--token", token, "--name", "r1", "--labels", "self-hosted:host")
	reg.Dir, reg.Env = dir, env
	stdin, err := reg.StdinPipe() // runChild stops at its EOF
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if out, err := reg.CombinedOutput(); err != nil {
		t.Fatalf("runner register: %v\n%s", err, out)
	}
	run := exec.Command(os.Args[0], "runner", "run", "--workdir", filepath.Join(dir, "work"))
	run.Dir, run.Env = dir, env
	if _, err := run.StdinPipe(); err != nil { // held open until we exit
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "runner.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	run.Stdout, run.Stderr = logFile, logFile
	if err := run.Start(); err != nil {
		t.Fatalf("start the runner: %v", err)
	}
	t.Cleanup(func() {
		run.Process.Kill()
		run.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("runner log:\n%s", b)
		}
	})
}

// A push with a workflow of two jobs, one a matrix of two and one needing
// it, and a failing workflow, runs on a registered `dforge runner` (a
// process of its own, host mode): the commit's statuses go to success for
// the first and failure for the second, a job's log reaches the run's
// stream while the job still runs, and the needed job's output reaches
// the one that needs it.
func TestAWorkflowRunsOnADForgeRunner(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	net := startProcNet(t, ctx, 1, 0)
	n := net.nodes[0]
	key, _ := crypto.GenerateKey()
	alice := crSignIn(t, ctx, n.url, key)
	crCreateRepo(t, ctx, n.url, alice, "ci")
	api := n.url + "/api/v1/repos/" + alice.login + "/ci"
	res, body := crTokenPost(t, ctx, api+"/actions/runners/registration-token", alice, nil)
	var tok struct{ Token string }
	if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &tok) != nil || tok.Token == "" {
		t.Fatalf("registration token: %d %s", res.StatusCode, body)
	}
	startRunner(t, ctx, n.url, tok.Token)

	work := crGitWork(t)
	sha := work.commit(map[string]string{".gitea/workflows/ci.yml": actionsCI, ".gitea/workflows/lint.yml": actionsLint,
		".github/actions/greet/action.yml": actionsGreet, "README.md": "# ci\n"})
	if out, err := work.push(ctx, alice.remote(n.url, "ci"), "main"); err != nil {
		t.Fatalf("push: %v\n%s", err, out)
	}

	var ciRun int64
	eventually(t, ctx, "the CI run", time.Minute, func() (string, bool) {
		var runs struct {
			Runs []struct {
				ID   int64
				Path string
			} `json:"workflow_runs"`
		}
		if err := getJSON(ctx, api+"/actions/runs?workflow=ci.yml", &runs); err != nil || len(runs.Runs) == 0 {
			return "no run yet", false
		}
		ciRun = runs.Runs[0].ID
		return "", true
	})
	live := streamUntil(t, ctx, api+"/actions/runs/"+itoa(ciRun)+"/stream", "live line")
	if !live {
		t.Fatal("the check job's first line did not reach the run's stream while the job ran")
	}

	var combined struct {
		State    string
		Statuses []struct{ Context, Status string }
	}
	eventually(t, ctx, "the commit's statuses", 2*time.Minute, func() (string, bool) {
		if err := getJSON(ctx, api+"/commits/"+sha+"/status", &combined); err != nil {
			return err.Error(), false
		}
		states := map[string]string{}
		for _, s := range combined.Statuses {
			states[s.Context] = s.Status
		}
		want := map[string]string{"CI / build (a) (push)": "success", "CI / build (b) (push)": "success", "CI / check (push)": "success", "Lint / lint (push)": "failure"}
		for c, st := range want {
			if states[c] != st {
				b, _ := json.Marshal(states)
				return string(b), false
			}
		}
		return "", combined.State == "failure"
	})

	var jobs struct {
		Jobs []struct {
			ID         int64
			Name       string
			Conclusion string
		}
	}
	if err := getJSON(ctx, api+"/actions/runs/"+itoa(ciRun)+"/jobs", &jobs); err != nil || len(jobs.Jobs) != 3 {
		t.Fatalf("the CI run's jobs: %v %+v", err, jobs)
	}
	logs := map[string]string{}
	for _, j := range jobs.Jobs {
		res, err := http.Get(api + "/actions/jobs/" + itoa(j.ID) + "/logs")
		if err != nil {
			t.Fatal(err)
		}
		b := new(strings.Builder)
		_, _ = bufio.NewReader(res.Body).WriteTo(b)
		res.Body.Close()
		logs[j.Name] = b.String()
	}
	if !strings.Contains(logs["build (a)"], "hello from a") || !strings.Contains(logs["build (b)"], "hello from b") || !strings.Contains(logs["check"], "needs ok") ||
		!strings.Contains(logs["check"], "cloned at "+sha) || !strings.Contains(logs["check"], "greet said hello-node") {
		t.Fatalf("the jobs' logs: %v", logs)
	}
	// The job's token (a JWT) cloned the repository and is masked in
	// every log, even where the step's command line is shown.
	for name, log := range logs {
		if strings.Contains(log, "eyJhbGci") {
			t.Errorf("job %s's log shows its token:\n%s", name, log)
		}
	}
}

// streamUntil reads the run's event stream until a log row holds want
// while its job is running; it says whether that happened.
func streamUntil(t *testing.T, ctx context.Context, url, want string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("open the run's stream: %v", err)
	}
	defer res.Body.Close()
	running := map[float64]bool{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var data map[string]any
			if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &data) != nil {
				continue
			}
			switch event {
			case "job":
				id, _ := data["id"].(float64)
				running[id] = data["state"] == "running"
			case "log":
				id, _ := data["job"].(float64)
				if strings.Contains(line, want) && running[id] {
					return true
				}
			case "end":
				return false
			}
		}
	}
	return false
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
