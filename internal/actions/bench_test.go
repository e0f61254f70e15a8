package actions_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/dforge/dforge/internal/forgetest"
)

// BenchmarkActions is `make bench-actions`: on one node (SQLite), with
// runners that poll as `dforge runner` does (every 250 ms when idle),
// (a) a push to its job's start on an idle runner, p50 and p99, from the
// start of `git push` (the push's block included) to FetchTask handing
// the job out; (b) a log row from the runner's UpdateLog to a reader of
// the run's stream, p50; (c) 200 queued jobs across 4 runners, each
// finished at once: the wall time per job; (d) the node's RSS growth
// with 4 runners connected and 200 jobs done. It prints figures only.
func BenchmarkActions(b *testing.B) {
	for range b.N {
		n := forgetest.Start(b)
		alice := n.NewUser()
		repo := newRepo(n, alice, "bench")
		tok := runnerToken(n, alice, repo)
		rssBefore := rss()
		r := registerB(b, n, tok)
		dir := n.Clone(n.Remote(alice, alice.Name(), "bench"))

		// (a) push to start.
		n.Commit(dir, "wf", map[string]string{".gitea/workflows/one.yml": "on: push\njobs:\n  j:\n    runs-on: linux\n    steps:\n      - run: echo hi\n"})
		var starts []time.Duration
		for i := range 30 {
			n.Commit(dir, "c", map[string]string{"f": strconv.Itoa(i)})
			t0 := time.Now()
			n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
			task := r.poll(30*time.Second, 250*time.Millisecond)
			if task == nil {
				b.Fatal("a push's job was not handed out")
			}
			starts = append(starts, time.Since(t0))
			r.finishB(task, runnerv1.Result_RESULT_SUCCESS, "ok")
		}

		// (b) a log row to a reader of the run's stream.
		n.Commit(dir, "c", map[string]string{"f": "log"})
		n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
		task := r.poll(30*time.Second, 250*time.Millisecond)
		logLat := logToStream(b, n, repo, r, task)
		r.finishB(task, runnerv1.Result_RESULT_SUCCESS)

		// (c) 200 queued jobs, 4 runners.
		runners := []*runner{r, registerB(b, n, tok), registerB(b, n, tok), registerB(b, n, tok)}
		var shards []string
		for i := range 200 {
			shards = append(shards, strconv.Itoa(i))
		}
		n.Commit(dir, "many", map[string]string{".gitea/workflows/one.yml": "on: push\njobs:\n  j:\n    runs-on: linux\n    strategy:\n      matrix:\n        n: [" +
			strings.Join(shards, ",") + "]\n    steps:\n      - run: echo ${{ matrix.n }}\n"})
		n.Git(dir, "push", "--quiet", "origin", "HEAD:main")
		first := runners[0].poll(30*time.Second, 250*time.Millisecond)
		t0 := time.Now()
		runners[0].finishB(first, runnerv1.Result_RESULT_SUCCESS, "ok")
		var wg sync.WaitGroup
		var mu sync.Mutex
		doneJobs := 1
		for _, rn := range runners {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					task := rn.poll(2*time.Second, 250*time.Millisecond)
					if task == nil {
						return
					}
					rn.finishB(task, runnerv1.Result_RESULT_SUCCESS, "ok")
					mu.Lock()
					doneJobs++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		// The last poll of each runner waited 2 s for nothing: not dispatch.
		perJob := (time.Since(t0) - 2*time.Second) / time.Duration(doneJobs)
		runtime.GC()
		rssAfter := rss()

		slices.Sort(starts)
		fmt.Printf("bench-actions (SQLite, one node; load %s)\n", loadAvg())
		fmt.Printf("| figure | measured | target |\n|---|---|---|\n")
		fmt.Printf("| push to the job's start, idle runner, p50 / p99 (%d pushes) | %v / %v | < 1 s / < 3 s |\n", len(starts), starts[len(starts)/2].Round(time.Millisecond), starts[len(starts)*99/100].Round(time.Millisecond))
		fmt.Printf("| a log line to the run's stream, p50 (%d lines) | %v | < 500 ms |\n", len(logLat), logLat[len(logLat)/2].Round(time.Millisecond))
		fmt.Printf("| %d queued jobs across 4 runners: wall time per job | %v | < 20 ms |\n", doneJobs, perJob.Round(100*time.Microsecond))
		fmt.Printf("| node RSS growth, 4 runners connected and %d jobs done (test process) | %+.1f MB | < +50 MB |\n", doneJobs+31, float64(rssAfter-rssBefore)/1e6)
	}
}

func registerB(b *testing.B, n *forgetest.Node, token string) *runner {
	return register(b, n, token, "linux:host")
}

// poll asks for a task every interval until one comes or within passes.
func (r *runner) poll(within, interval time.Duration) *runnerv1.Task {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		res, err := r.client.FetchTask(context.Background(), newReq(r, &runnerv1.FetchTaskRequest{TasksVersion: r.seen}))
		if err == nil {
			r.seen = res.Msg.TasksVersion
			if res.Msg.Task != nil {
				return res.Msg.Task
			}
		}
		time.Sleep(interval)
	}
	return nil
}

func (r *runner) finishB(task *runnerv1.Task, result runnerv1.Result, lines ...string) {
	ctx := context.Background()
	if len(lines) > 0 {
		rows := []*runnerv1.LogRow{}
		for _, l := range lines {
			rows = append(rows, &runnerv1.LogRow{Time: timestamppb.Now(), Content: l})
		}
		_, _ = r.client.UpdateLog(ctx, newReq(r, &runnerv1.UpdateLogRequest{TaskId: task.Id, Index: 0, Rows: rows, NoMore: true}))
	}
	_, _ = r.client.UpdateTask(ctx, newReq(r, &runnerv1.UpdateTaskRequest{State: &runnerv1.TaskState{Id: task.Id, Result: result}}))
}

// logToStream sends 50 log rows one at a time and times each to a reader
// of the run's event stream.
func logToStream(b *testing.B, n *forgetest.Node, repo string, r *runner, task *runnerv1.Task) []time.Duration {
	runID := task.Context.AsMap()["run_id"].(string)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", n.URL+repo+"/actions/runs/"+runID+"/stream", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	seen := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if line := sc.Text(); strings.Contains(line, "bench-row-") {
				seen <- line
			}
		}
	}()
	var out []time.Duration
	for i := range 50 {
		want := fmt.Sprintf("bench-row-%d", i)
		t0 := time.Now()
		_, err := r.client.UpdateLog(ctx, newReq(r, &runnerv1.UpdateLogRequest{TaskId: task.Id, Index: int64(i), Rows: []*runnerv1.LogRow{{Time: timestamppb.Now(), Content: want}}}))
		if err != nil {
			b.Fatal(err)
		}
		select {
		case line := <-seen:
			if !strings.Contains(line, want+`"`) {
				b.Fatalf("the stream sent %s, want %s", line, want)
			}
			out = append(out, time.Since(t0))
		case <-time.After(10 * time.Second):
			b.Fatal("a log row did not reach the stream")
		}
	}
	slices.Sort(out)
	return out
}

// rss is the process's resident set, in bytes.
func rss() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1000
		}
	}
	return 0
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
