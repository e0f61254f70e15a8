// Command search is `make bench-search`: code search on a dforge node. It
// generates a repository of Go-like source (-mb of it), pushes it to a node
// and reports how long the node took to index it (from the push's answer to
// the last file being searchable) and the index's size on disk; then the
// latency of GET /api/v1/search/code (p50, p99) under -conns concurrent
// connections, and the indexing of a push that changes 10 files. Figures
// only: nothing is asserted.
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

type options struct {
	mb       int
	queries  int
	conns    int
	quick    bool
	bin      string
	timeout  time.Duration
	fileSize int
	pprof    string // the node's profiles, when asked
}

func main() { os.Exit(mainCode()) }

func mainCode() int {
	var o options
	flag.IntVar(&o.mb, "mb", 50, "MB of generated source to index")
	flag.IntVar(&o.queries, "queries", 2000, "searches to time")
	flag.IntVar(&o.conns, "conns", 16, "concurrent connections the searches run on")
	flag.BoolVar(&o.quick, "quick", false, "a small smoke run: -mb 4 -queries 200 unless given")
	flag.StringVar(&o.bin, "bin", "", "dforge binary to run (default: go build ./cmd/dforge into the temporary directory)")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Minute, "abort the run after this long")
	flag.StringVar(&o.pprof, "node-pprof", "", "serve the node's Go profiles on this loopback address (dforge serve --pprof-addr), to explain a figure")
	flag.Parse()
	o.fileSize = 8 << 10
	if o.quick {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["mb"] {
			o.mb = 4
		}
		if !set["queries"] {
			o.queries = 200
		}
	}
	if o.mb < 1 || o.queries < 1 || o.conns < 1 {
		fmt.Fprintln(os.Stderr, "bench-search: -mb, -queries and -conns must be positive")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-search:", err)
		return 1
	}
	return 0
}

// marker is in every generated file, so its count says how many are indexed.
const marker = "benchmarkfile"

func run(ctx context.Context, o options, out io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-bench-search-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	g, err := corpus.NewGit(tmp)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "dForge code search benchmark: GOMAXPROCS=%d, %s/%s, %s%s\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, g.Version, loadAvg())

	// 1. The binary, a node, a repository of generated source.
	bin, err := forgenode.Binary(ctx, o.bin, tmp, func(f string, a ...any) { fmt.Fprintf(out, "note: "+f+"\n", a...) }, out)
	if err != nil {
		return err
	}
	data := filepath.Join(tmp, "node")
	args := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0"}
	if o.pprof != "" {
		args = append(args, "--pprof-addr", o.pprof)
	}
	n, err := forgenode.Start(ctx, bin, args, nil, filepath.Join(tmp, "node.log"))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, n.Stop()) }()
	c, err := forgenode.SignIn(ctx, n.URL)
	if err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	repo, err := c.CreateRepo(ctx, "bench-search")
	if err != nil {
		return err
	}
	work := filepath.Join(tmp, "work")
	words := vocabulary(3000)
	files, bytes, err := generate(work, o.mb<<20, o.fileSize, words)
	if err != nil {
		return err
	}
	if _, err := g.Output(ctx, work, "init", "-q", "-b", forgenode.DefaultBranch); err != nil {
		return err
	}
	if err := commitAll(ctx, g, work, "generated source"); err != nil {
		return err
	}
	basic := base64.StdEncoding.EncodeToString([]byte("bench:" + c.Token))
	push := func() (time.Duration, error) {
		start := time.Now()
		_, err := g.Output(ctx, work, "-c", "http.extraHeader=Authorization: Basic "+basic, "push", "--quiet", c.GitURL(*repo), forgenode.DefaultBranch)
		return time.Since(start), err
	}

	// 2. The full index.
	fmt.Fprintf(out, "pushing %d files (%.1f MB) ...\n", len(files), float64(bytes)/1e6)
	pushed, err := push()
	if err != nil {
		return fmt.Errorf("push: %w", err)
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.conns, MaxConnsPerHost: o.conns}}
	searchPath := "/api/v1/repos/" + repo.Path() + "/search/code"
	indexed, err := waitForTotal(ctx, hc, n.URL+searchPath, marker, len(files))
	if err != nil {
		return err
	}
	// The searches are timed on the index as it stays: after the node's
	// merge of it into one segment, which follows a large indexing.
	settled, err := n.WaitIdle(ctx, 5*time.Minute)
	if err != nil {
		fmt.Fprintf(out, "note: %v\n", err)
	}
	size, err := dirSize(filepath.Join(data, "codesearch"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%-34s %10s\n", "full index", "")
	fmt.Fprintf(out, "%-34s %10.2f s\n", "push", pushed.Seconds())
	fmt.Fprintf(out, "%-34s %10.2f s  (%.1f MB/s)\n", "indexed after the push's answer", indexed.Seconds(), float64(bytes)/1e6/indexed.Seconds())
	fmt.Fprintf(out, "%-34s %10.1f MB  (%.2f x the source)\n", "index size on disk", float64(size)/1e6, float64(size)/float64(bytes))
	fmt.Fprintf(out, "%-34s %10.2f s\n", "then the node idle after", settled.Seconds())

	// 3. Searches under concurrent connections, anonymous, across the node.
	lat, elapsed, failed := searchLoad(ctx, hc, n.URL, words, o.queries, o.conns)
	slices.Sort(lat)
	fmt.Fprintf(out, "\n%d searches on %d connections: %d failed, %.0f searches/s\n", len(lat), o.conns, failed, float64(len(lat))/elapsed.Seconds())
	fmt.Fprintf(out, "%-34s %10.1f ms\n", "p50", ms(pct(lat, 50)))
	fmt.Fprintf(out, "%-34s %10.1f ms\n", "p99", ms(pct(lat, 99)))

	// 4. A push that changes 10 files: only they are read again.
	fresh := fmt.Sprintf("revisedword%d", time.Now().UnixNano())
	for _, f := range files[:10] {
		fh, err := os.OpenFile(filepath.Join(work, f), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(fh, "\n// %s\n", fresh)
		fh.Close()
	}
	if err := commitAll(ctx, g, work, "revise 10 files"); err != nil {
		return err
	}
	if pushed, err = push(); err != nil {
		return fmt.Errorf("second push: %w", err)
	}
	indexed, err = waitForTotal(ctx, hc, n.URL+searchPath, fresh, 10)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%-34s %10.2f s\n", "push of 10 changed files", pushed.Seconds())
	fmt.Fprintf(out, "%-34s %10.3f s\n", "indexed after the push's answer", indexed.Seconds())
	return nil
}

// vocabulary makes n distinct identifiers of two or three syllables.
func vocabulary(n int) []string {
	syl := []string{"ka", "lo", "mi", "ren", "tu", "vex", "zor", "pa", "qui", "sel", "dan", "fo", "gri", "hul", "jas", "nep", "or", "bri", "cus", "wen"}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		w := syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))]
		if r.IntN(2) == 0 {
			w += syl[r.IntN(len(syl))]
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// generate writes Go-like files of about size bytes each until total.
func generate(dir string, total, size int, words []string) ([]string, int64, error) {
	r := rand.New(rand.NewPCG(3, 4))
	var files []string
	var written int64
	for i := 0; written < int64(total); i++ {
		name := fmt.Sprintf("pkg%03d/file%05d.go", i/200, i)
		var b strings.Builder
		fmt.Fprintf(&b, "// Package pkg%03d is generated (%s %d).\npackage pkg%03d\n\n", i/200, marker, i, i/200)
		for b.Len() < size {
			w := func() string { return words[zipf(r, len(words))] }
			fmt.Fprintf(&b, "// %s %s the %s.\nfunc %s%d(%s int, %s string) error {\n\tif %s > %d {\n\t\treturn %s(%s, %q)\n\t}\n\treturn nil\n}\n\n",
				w(), w(), w(), w(), r.IntN(1000), w(), w(), w(), r.IntN(100), w(), w(), w())
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, 0, err
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return nil, 0, err
		}
		files = append(files, name)
		written += int64(b.Len())
	}
	return files, written, nil
}

// zipf picks a word index with a skew, so common words are in most files
// and rare ones in few, as in code.
func zipf(r *rand.Rand, n int) int {
	x := r.Float64()
	return min(n-1, int(float64(n)*x*x*x))
}

func commitAll(ctx context.Context, g *corpus.Git, dir, msg string) error {
	if _, err := g.Output(ctx, dir, "add", "-A"); err != nil {
		return err
	}
	_, err := g.Output(ctx, dir, "commit", "-q", "-m", msg)
	return err
}

// waitForTotal polls the search until q matches want files and says how long that took.
func waitForTotal(ctx context.Context, hc *http.Client, endpoint, q string, want int) (time.Duration, error) {
	start := time.Now()
	for {
		total, err := searchTotal(ctx, hc, endpoint+"?limit=1&q="+url.QueryEscape(q))
		if err != nil {
			return 0, err
		}
		if total >= want {
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("waiting for %d files to match %q (%d so far): %w", want, q, total, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func searchTotal(ctx context.Context, hc *http.Client, u string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return 0, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return 0, fmt.Errorf("GET %s: %d %s", u, res.StatusCode, b)
	}
	var body struct {
		Total int `json:"total"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return 0, err
	}
	return body.Total, nil
}

// searchLoad runs queries of one or two words on conns connections.
func searchLoad(ctx context.Context, hc *http.Client, base string, words []string, queries, conns int) ([]time.Duration, time.Duration, int) {
	var mu sync.Mutex
	var lat []time.Duration
	failed := 0
	jobs := make(chan string)
	var wg sync.WaitGroup
	start := time.Now()
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for q := range jobs {
				t := time.Now()
				_, err := searchTotal(ctx, hc, base+"/api/v1/search/code?limit=10&q="+url.QueryEscape(q))
				d := time.Since(t)
				mu.Lock()
				if err != nil {
					failed++
				} else {
					lat = append(lat, d)
				}
				mu.Unlock()
			}
		}()
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range queries {
		q := words[zipf(r, len(words))]
		if i%3 == 0 {
			q += " " + words[zipf(r, len(words))]
		}
		select {
		case jobs <- q:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	return lat, time.Since(start), failed
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, len(sorted)*p/100)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n, err
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if err != nil || len(f) < 3 {
		return ""
	}
	return ", load " + strings.Join(f[:3], " ")
}
