// Command forge is dForge's forge benchmark (`make bench-forge`).
//
// It runs the real dforge binary as a subprocess (built from this tree into
// a temporary directory) and drives it only from outside, as users do:
// Sign-In with Ethereum, a personal access token, the REST API and git over
// Smart HTTP. `git http-backend`, served by this process through
// net/http/cgi, is the yardstick for the git figures:
//
//  1. Clone throughput of a large repository with history (the Go
//     toolchain's sources in 20 commits, topped up with generated files to
//     -big-mb of packed data): dForge and http-backend serve the very same
//     bare repository (the one dForge holds after a push), rounds
//     alternating between the two; medians and their ratio.
//  2. Push throughput of the same repository into a fresh empty dForge
//     repository and into a fresh bare repository behind http-backend.
//  3. p50/p99 latency and requests/s of the repository, file tree and issue
//     list APIs under 64 concurrent connections, on that repository once it
//     holds -issues issues (created through the API, 32 at a time); with wrk
//     when it is installed, else with a built-in load generator.
//  4. Peak RSS of the node during the push and, after a restart, the clone
//     of a ~1 GB repository of incompressible blobs, with the largest git
//     child process alongside.
//
// The two repositories are built once into a cache directory and reused.
// An API the node does not offer yet is reported as "not available" and
// the rest still runs. It prints figures only and never fails on timing.
// Everything listens on 127.0.0.1 on free ports; the temporary directory
// is removed at the end, even after Ctrl-C or the -timeout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

type options struct {
	bigMB, hugeMB int           // packed sizes of the two repositories
	issues        int           // issues created before the latency runs
	issueWorkers  int           // concurrent issue creators
	rounds        int           // clone and push rounds per server; medians are reported
	duration      time.Duration // of each latency run
	conns         int           // concurrent connections of the latency runs
	quick         bool
	bin           string // the dforge binary; empty builds ./cmd/dforge
	cache         string // where the repositories are built once
	timeout       time.Duration
	pprof         string // the node's profiles, when asked
}

func main() { os.Exit(mainCode()) }

// mainCode is main with deferred calls that run before the exit.
func mainCode() int {
	var o options
	flag.IntVar(&o.bigMB, "big-mb", 200, "packed size in MB (10^6 bytes) of the repository with history for the clone and push figures (at least)")
	flag.IntVar(&o.hugeMB, "huge-mb", 1000, "packed size in MB of the repository of generated blobs whose clone's peak RSS is measured")
	flag.IntVar(&o.issues, "issues", 10000, "issues created through the API before the latency runs")
	flag.IntVar(&o.issueWorkers, "issue-workers", 32, "concurrent clients creating the issues")
	flag.IntVar(&o.rounds, "rounds", 5, "clone and push rounds per server, alternating dForge and http-backend (median reported)")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "length of each latency run")
	flag.IntVar(&o.conns, "conns", 64, "concurrent keep-alive connections of the latency runs")
	flag.BoolVar(&o.quick, "quick", false, "a small smoke run: -big-mb 16 -huge-mb 48 -issues 200 -rounds 1 -duration 2s unless given")
	flag.StringVar(&o.bin, "bin", "", "dforge binary to run (default: go build ./cmd/dforge into the temporary directory)")
	flag.StringVar(&o.cache, "cache", corpus.DefaultCache(), "directory where the repositories are built once and reused")
	flag.DurationVar(&o.timeout, "timeout", 90*time.Minute, "abort the run after this long")
	flag.StringVar(&o.pprof, "node-pprof", "", "serve the node's Go profiles on this loopback address (dforge serve --pprof-addr), to explain a figure")
	flag.Parse()
	if o.quick {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		quick := map[string]func(){
			"big-mb": func() { o.bigMB = 16 }, "huge-mb": func() { o.hugeMB = 48 }, "issues": func() { o.issues = 200 },
			"rounds": func() { o.rounds = 1 }, "duration": func() { o.duration = 2 * time.Second },
		}
		for name, apply := range quick {
			if !set[name] {
				apply()
			}
		}
	}
	var err error
	if o.cache, err = filepath.Abs(o.cache); err != nil {
		fmt.Fprintln(os.Stderr, "bench-forge:", err)
		return 2
	}
	if o.bigMB < 1 || o.hugeMB < 1 || o.issues < 0 || o.issueWorkers < 1 || o.rounds < 1 || o.duration <= 0 || o.conns < 1 {
		fmt.Fprintln(os.Stderr, "bench-forge: sizes, -rounds, -duration, -conns and -issue-workers must be positive (-issues may be 0)")
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-forge:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-bench-forge-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	started := time.Now()
	g, err := newGit(tmp)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "dForge forge benchmark: GOMAXPROCS=%d, %s/%s, %s%s\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, g.Version, loadAvg())
	r := &report{opts: o, notes: &notes{}}
	r.latency.tool = "-"

	// 0. The dforge binary and the two repositories.
	fmt.Fprintln(out, "[0/4] the dforge binary and the cached repositories ...")
	bin, err := forgenode.Binary(ctx, o.bin, tmp, r.notes.add, out)
	if err != nil {
		return err
	}
	if r.big, err = corpus.Big(ctx, g.Git, o.cache, o.bigMB, out); err != nil {
		return fmt.Errorf("build the %d MB repository: %w", o.bigMB, err)
	}
	if r.huge, err = corpus.Huge(ctx, g.Git, o.cache, o.hugeMB, out); err != nil {
		return fmt.Errorf("build the %d MB repository: %w", o.hugeMB, err)
	}

	// The node, and a signed-in user with a token.
	data := filepath.Join(tmp, "node")
	args := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0"}
	if o.pprof != "" {
		args = append(args, "--pprof-addr", o.pprof)
	}
	n, err := forgenode.Start(ctx, bin, args, nil, filepath.Join(tmp, "node.log"))
	if err != nil {
		return err
	}
	defer func() {
		err = errors.Join(err, n.Stop())
		for _, l := range n.Logs.Top(5) {
			r.notes.add("the node logged %dx %s: %s", l.Count, l.Level, l.Text)
		}
		fmt.Fprintln(out)
		r.print(out)
		fmt.Fprintf(out, "\nThe run took %s.\n", time.Since(started).Round(time.Second))
	}()
	fmt.Fprintf(out, "node %s started at %s (data in %s)\n", filepath.Base(bin), n.URL, data)
	c, err := forgenode.SignIn(ctx, n.URL)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	fmt.Fprintf(out, "signed in as %s with a personal access token\n\n", c.Login)

	fmt.Fprintf(out, "[1/4] clone and push of the %.0f MB repository, %d round(s) per server ...\n", mb(r.big.Info.PackedBytes), o.rounds)
	r.git = benchGit(ctx, o, g, c, data, r.big, filepath.Join(tmp, "git"), r.notes, out)
	if err := ctx.Err(); err != nil {
		return err
	}

	fmt.Fprintf(out, "[2/4] %d issues through the API, %d at a time ...\n", o.issues, o.issueWorkers)
	repo := r.git.repo
	if repo == nil {
		repo, err = c.CreateRepo(ctx, "bench-issues")
		if err != nil {
			r.issues.unavailable = err.Error()
		}
	}
	if repo != nil {
		r.issues = createIssues(ctx, c, *repo, o.issues, o.issueWorkers, out)
	}
	if err := ctx.Err(); err != nil {
		return err
	}

	fmt.Fprintf(out, "[3/4] API latency under %d connections, %s per endpoint ...\n", o.conns, o.duration)
	var yard *processPerRead
	if r.git.repo != nil {
		if dir, ok := bareDir(data, r.git.repo.ID); ok {
			if yard, err = startProcessPerRead(g.Git.Path, dir); err != nil {
				return fmt.Errorf("serve the raw file's yardstick: %w", err)
			}
			defer yard.stop(context.Background())
		}
	}
	rawFile := "README.md"
	if repo != nil {
		if rawFile, err = sampleFile(ctx, c, *repo); err != nil {
			r.notes.add("no raw file to read: %s", err)
		}
	}
	r.latency = benchLatency(ctx, o, n.URL, repo, yard, rawFile, r.issues.created, out)
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(out, "[3/4] mixed load: %d connections, reads over many URLs with %v%% writes, %s each ...\n", o.conns, writeShares, o.duration)
	r.mixed = benchMixed(ctx, o, c, repo, r.issues.created, out)
	if err := ctx.Err(); err != nil {
		return err
	}

	fmt.Fprintf(out, "[4/4] peak RSS: push and clone of the %.0f MB repository ...\n", mb(r.huge.Info.PackedBytes))
	r.memory = benchMemory(ctx, g, c, n, r.huge, filepath.Join(tmp, "huge-clone"), r.notes, out)
	return ctx.Err()
}

// loadAvg is the host's load average when it can be read: figures taken on a
// busy machine are not comparable with those of an idle one.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if err != nil || len(f) < 3 {
		return ""
	}
	return ", load average " + strings.Join(f[:3], " ")
}

func mb(n int64) float64 { return float64(n) / 1e6 }

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// notes are the remarks printed under the figures: failures, fallbacks,
// what the node logged.
type notes struct{ lines []string }

func (n *notes) add(format string, args ...any) {
	n.lines = append(n.lines, fmt.Sprintf(format, args...))
}
