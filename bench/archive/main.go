// Command archive is `make bench-archive`: the throughput of archive
// downloads through a dforge node (GET /api/v1/repos/{o}/{r}/archive/
// {ref}.zip and .tar.gz, streamed from git archive) against `git archive`
// run directly on the same bare repository, on bench-forge's cached
// repository with history. The target is a ratio of at least 0.9: the node
// adds an HTTP hop and nothing else.
//
// Each round runs both, in alternating order, writing into io.Discard (the
// node's answer is read over loopback HTTP); the median of the rounds is
// reported as MB/s of archive bytes, and the ratio node/direct.
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
	"github.com/dforge/dforge/internal/gitstore"
)

type options struct {
	bigMB   int
	rounds  int
	quick   bool
	bin     string
	cache   string
	timeout time.Duration
}

func main() { os.Exit(mainCode()) }

func mainCode() int {
	var o options
	flag.IntVar(&o.bigMB, "big-mb", 200, "packed size in MB of bench-forge's repository with history to archive")
	flag.IntVar(&o.rounds, "rounds", 5, "rounds per format, alternating the node and git archive (median reported)")
	flag.BoolVar(&o.quick, "quick", false, "a small smoke run: -big-mb 16 -rounds 1 unless given")
	flag.StringVar(&o.bin, "bin", "", "dforge binary to run (default: go build ./cmd/dforge into the temporary directory)")
	flag.StringVar(&o.cache, "cache", corpus.DefaultCache(), "directory where bench-forge's repositories are built once and reused")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Minute, "abort the run after this long")
	flag.Parse()
	if o.quick {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["big-mb"] {
			o.bigMB = 16
		}
		if !set["rounds"] {
			o.rounds = 1
		}
	}
	if o.bigMB < 1 || o.rounds < 1 {
		fmt.Fprintln(os.Stderr, "bench-archive: -big-mb and -rounds must be positive")
		return 2
	}
	var err error
	if o.cache, err = filepath.Abs(o.cache); err != nil {
		fmt.Fprintln(os.Stderr, "bench-archive:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-archive:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-bench-archive-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	g, err := corpus.NewGit(tmp)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "dForge archive benchmark: GOMAXPROCS=%d, %s/%s, %s%s\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, g.Version, loadAvg())
	// 1. The binary, the repository, a node holding it.
	bin, err := forgenode.Binary(ctx, o.bin, tmp, func(f string, a ...any) { fmt.Fprintf(out, "note: "+f+"\n", a...) }, out)
	if err != nil {
		return err
	}
	big, err := corpus.Big(ctx, g, o.cache, o.bigMB, out)
	if err != nil {
		return fmt.Errorf("build the %d MB repository: %w", o.bigMB, err)
	}
	data := filepath.Join(tmp, "node")
	n, err := forgenode.Start(ctx, bin, []string{"serve", "--data", data, "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0"}, nil, filepath.Join(tmp, "node.log"))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, n.Stop()) }()
	c, err := forgenode.SignIn(ctx, n.URL)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	repo, err := c.CreateRepo(ctx, "bench-archive")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "pushing the %.0f MB repository into the node ...\n", float64(big.Info.PackedBytes)/1e6)
	basic := base64.StdEncoding.EncodeToString([]byte("bench:" + c.Token))
	if _, err := g.Output(ctx, big.Path, "-c", "http.extraHeader=Authorization: Basic "+basic,
		"push", "--quiet", c.GitURL(*repo), "refs/heads/*:refs/heads/*"); err != nil {
		return fmt.Errorf("push: %w", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(data, "git", "*", strconv.FormatInt(repo.ID, 10)+".git"))
	if len(dirs) != 1 {
		return fmt.Errorf("the node's bare repository %d is not under %s/git", repo.ID, data)
	}
	// 2. The rounds.
	fmt.Fprintf(out, "archiving %s at %s, %d round(s) per format ...\n\n", corpus.Branch, big.Info.Head[:12], o.rounds)
	fmt.Fprintf(out, "%-7s  %12s  %14s  %14s  %6s\n", "format", "archive MB", "node MB/s", "git MB/s", "ratio")
	url := n.URL + "/api/v1/repos/" + repo.Path() + "/archive/"
	for _, format := range []string{gitstore.ArchiveZip, gitstore.ArchiveTarGz} {
		var viaNode, direct []float64
		var size int64
		for round := range o.rounds {
			steps := []func() error{
				func() error {
					b, d, err := download(ctx, url+corpus.Branch+"."+format, c.Token)
					size = b
					viaNode = append(viaNode, mbps(b, d))
					return err
				},
				func() error {
					b, d, err := gitArchive(ctx, g, dirs[0], big.Info.Head, format, repo.Name+"/")
					direct = append(direct, mbps(b, d))
					return err
				},
			}
			if round%2 == 1 {
				steps[0], steps[1] = steps[1], steps[0]
			}
			for _, step := range steps {
				if err := step(); err != nil {
					return fmt.Errorf("%s round %d: %w", format, round+1, err)
				}
			}
		}
		nm, dm := median(viaNode), median(direct)
		fmt.Fprintf(out, "%-7s  %12.1f  %14.1f  %14.1f  %6.2f\n", format, float64(size)/1e6, nm, dm, nm/dm)
	}
	fmt.Fprintln(out, "\nnode: GET .../archive/main.{zip,tar.gz} over loopback HTTP; git: `git archive` of the same commit on the node's bare repository, both into io.Discard.")
	return nil
}

// download reads url whole and returns its bytes and the time it took.
func download(ctx context.Context, url, token string) (int64, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", "token "+token)
	t0 := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: %s", url, res.Status)
	}
	n, err := io.Copy(io.Discard, res.Body)
	return n, time.Since(t0), err
}

// gitArchive runs the node's own git archive command directly.
func gitArchive(ctx context.Context, g *corpus.Git, dir, commit, format, prefix string) (int64, time.Duration, error) {
	cmd := g.Command(ctx, dir, gitstore.ArchiveArgs(commit, format, prefix)...)
	var cw countWriter
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &cw, &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, corpus.Error(cmd.Args[1:], err, stderr.String())
	}
	return cw.n, time.Since(t0), nil
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

func mbps(b int64, d time.Duration) float64 { return float64(b) / 1e6 / d.Seconds() }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if err != nil || len(f) < 3 {
		return ""
	}
	return ", load " + strings.Join(f[:3], " ")
}
