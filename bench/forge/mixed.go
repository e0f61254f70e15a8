package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

// The mixed load: reads spread over many URLs of one repository (issues,
// their comments, issue list pages, directories and raw files), so that
// no single cached answer serves them, with a share of writes (a comment
// on a random issue, which answers once its block is projected) from the
// same connections. Each write invalidates what the block changed; the
// reads show what that costs them.

// writeShares are the runs' shares of writes, in per cent.
var writeShares = []int{1, 10}

type mixedRun struct {
	writePct     int
	elapsed      time.Duration
	reads        []time.Duration
	writes       []time.Duration
	readErrors   int
	writeErrors  int
	firstFailure string
}

type mixedResult struct {
	urls        int
	unavailable string
	runs        []mixedRun
}

// writers is how many users write in the mixed load: the chain takes only
// so many actions of one account per block, as it would from a crowd.
const writers = 16

// benchMixed runs the mixed load once per write share, each for
// o.duration after a warm-up, with o.conns connections.
func benchMixed(ctx context.Context, o options, c *forgenode.Client, repo *forgenode.Repo, issues int, out io.Writer) mixedResult {
	var res mixedResult
	if repo == nil || issues == 0 {
		res.unavailable = "no repository with issues"
		return res
	}
	urls, err := readURLs(ctx, c, *repo, issues)
	if err != nil {
		res.unavailable = err.Error()
		fmt.Fprintf(out, "  not available (%s)\n", err)
		return res
	}
	res.urls = len(urls)
	var tokens []string
	for range writers {
		w, err := forgenode.SignIn(ctx, c.Base)
		if err != nil {
			res.unavailable = fmt.Sprintf("sign in a writer: %s", err)
			return res
		}
		tokens = append(tokens, w.Token)
	}
	for _, pct := range writeShares {
		run := mixedLoad(ctx, o, c.Base, tokens, *repo, urls, issues, pct)
		if ctx.Err() != nil {
			return res
		}
		fmt.Fprintf(out, "  %d%% writes: %.0f req/s; read p99 %s, write p99 %s\n", pct, run.rps(), p99(run.reads), p99(run.writes))
		res.runs = append(res.runs, run)
	}
	return res
}

// sampleFile finds a small text file of the repository for the raw-file
// figure: the first of 1 to 64 KiB, breadth first, three levels down.
func sampleFile(ctx context.Context, c *forgenode.Client, repo forgenode.Repo) (string, error) {
	p := "/api/v1/repos/" + repo.Path() + "/contents"
	dirs := []string{""}
	for range 3 {
		var next []string
		for _, d := range dirs {
			var entries []struct {
				Path, Type string
				Size       int64
			}
			if err := c.Call(ctx, "GET", p+"/"+d+"?ref="+corpus.Branch, nil, &entries, nil); err != nil {
				return "", fmt.Errorf("list %q: %w", d, err)
			}
			for _, e := range entries {
				if e.Type == "file" && e.Size >= 1<<10 && e.Size <= 64<<10 {
					return e.Path, nil
				}
				if e.Type == "dir" {
					next = append(next, e.Path)
				}
			}
		}
		dirs = next[:min(len(next), 8)]
	}
	return "", fmt.Errorf("no file of 1 to 64 KiB in the top three levels")
}

// readURLs lists the reads of the mixed load: each of up to 2,000 issues
// and its comments, every page of the issue list, and the repository's
// top-level directories and files.
func readURLs(ctx context.Context, c *forgenode.Client, repo forgenode.Repo, issues int) ([]string, error) {
	p := "/api/v1/repos/" + repo.Path()
	var urls []string
	for n := 1; n <= min(issues, 2000); n++ {
		urls = append(urls, fmt.Sprintf("%s/issues/%d", p, n), fmt.Sprintf("%s/issues/%d/comments", p, n))
	}
	for page := 1; page <= (issues+49)/50; page++ {
		urls = append(urls, fmt.Sprintf("%s/issues?limit=50&page=%d", p, page))
	}
	var entries []struct{ Path, Type string }
	if err := c.Call(ctx, "GET", p+"/contents?ref="+corpus.Branch, nil, &entries, nil); err != nil {
		return nil, fmt.Errorf("list the root directory: %w", err)
	}
	for _, e := range entries {
		switch e.Type {
		case "dir":
			urls = append(urls, p+"/contents/"+url.PathEscape(e.Path)+"?ref="+corpus.Branch)
		case "file":
			urls = append(urls, p+"/raw/"+url.PathEscape(e.Path)+"?ref="+corpus.Branch)
		}
	}
	return urls, nil
}

// mixedLoad runs o.conns connections, each sending requests back to back:
// a write (a comment on a random issue) with probability writePct/100,
// otherwise a GET of a random URL of urls.
func mixedLoad(ctx context.Context, o options, base string, tokens []string, repo forgenode.Repo, urls []string, issues, writePct int) mixedRun {
	transport := &http.Transport{MaxIdleConnsPerHost: o.conns, MaxConnsPerHost: o.conns, DisableCompression: true}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 60 * time.Second}
	comments := base + "/api/v1/repos/" + repo.Path() + "/issues/"
	send := func(write bool) (time.Duration, error) {
		var req *http.Request
		if write {
			body, _ := json.Marshal(map[string]string{"body": "A comment of bench-forge's mixed load."})
			req, _ = http.NewRequestWithContext(ctx, http.MethodPost, comments+strconv.Itoa(1+rand.IntN(issues))+"/comments", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "token "+tokens[rand.IntN(len(tokens))])
		} else {
			req, _ = http.NewRequestWithContext(ctx, http.MethodGet, base+urls[rand.IntN(len(urls))], nil)
		}
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode/100 != 2 {
			return 0, fmt.Errorf("%s %s: HTTP %d", req.Method, req.URL.Path, res.StatusCode)
		}
		return time.Since(t0), nil
	}
	phase := func(d time.Duration) mixedRun {
		run := mixedRun{writePct: writePct}
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := time.Now()
		deadline := start.Add(d)
		for range o.conns {
			wg.Go(func() {
				for time.Now().Before(deadline) && ctx.Err() == nil {
					write := rand.IntN(100) < writePct
					took, err := send(write)
					mu.Lock()
					run.add(write, took, err)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		run.elapsed = time.Since(start)
		return run
	}
	phase(warmup(o.duration))
	return phase(o.duration)
}

func (r *mixedRun) add(write bool, took time.Duration, err error) {
	switch {
	case err != nil && write:
		r.writeErrors++
	case err != nil:
		r.readErrors++
	case write:
		r.writes = append(r.writes, took)
	default:
		r.reads = append(r.reads, took)
	}
	if err != nil && r.firstFailure == "" {
		r.firstFailure = err.Error()
	}
}

func (r mixedRun) rps() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(len(r.reads)+len(r.writes)) / r.elapsed.Seconds()
}

// p99 is the nearest-rank 99th percentile of ds, or "-" when there are none.
func p99(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	return ms(percentile(ds, 99))
}

func p50(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	return ms(percentile(ds, 50))
}

func maxOf(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	return ms(slices.Max(ds))
}
