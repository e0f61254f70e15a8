package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dforge/dforge/internal/forgenode"
)

type issuesResult struct {
	unavailable string
	want        int
	created     int
	failed      int
	retries     int
	firstErr    string
	elapsed     time.Duration
	latencies   []time.Duration
	finished    []time.Duration // when each creation answered, from the start
}

// bands is the creation rate in each fifth of the issues created, in the
// order they were created: whether creation slows as the repository grows.
func (r issuesResult) bands() []string {
	const n = 5
	f := slices.Clone(r.finished)
	slices.Sort(f)
	if len(f) < 10*n {
		return nil
	}
	var out []string
	for k := range n {
		lo, hi := k*len(f)/n, (k+1)*len(f)/n-1
		d := f[hi] - f[lo]
		if k > 0 {
			d = f[hi] - f[lo-1]
			lo--
		}
		out = append(out, fmt.Sprintf("%d-%d: %.0f", k*len(f)/n, (k+1)*len(f)/n, float64(hi-lo)/d.Seconds()))
	}
	return out
}

func (r issuesResult) rate() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.created) / r.elapsed.Seconds()
}

// createIssues opens want issues in repo through POST .../issues, from
// workers concurrent clients. Each request answers once its chain
// transaction is in a block and projected; a 5xx is retried (for up to
// 30 s) and counted. The first request tells whether the API is there.
func createIssues(ctx context.Context, c *forgenode.Client, repo forgenode.Repo, want, workers int, out io.Writer) issuesResult {
	r := issuesResult{want: want}
	if want == 0 {
		return r
	}
	path := "/api/v1/repos/" + repo.Path() + "/issues"
	post := func(i int) (time.Duration, int, error) {
		body := map[string]any{
			"title": fmt.Sprintf("Benchmark issue %d", i),
			"body":  fmt.Sprintf("Issue %d of %d, opened by bench-forge to measure the issue list.\n\n- [ ] nothing to do", i, want),
		}
		t0 := time.Now()
		retried := 0
		for {
			err := c.Call(ctx, "POST", path, body, nil, nil)
			var ae *forgenode.APIError
			if err == nil || !errors.As(err, &ae) || ae.Status < 500 || time.Since(t0) > 30*time.Second {
				return time.Since(t0), retried, err
			}
			retried++
			backoff := time.Millisecond << min(retried, 6)
			if sleep(ctx, backoff+rand.N(backoff)) != nil {
				return time.Since(t0), retried, err
			}
		}
	}
	start := time.Now()
	d, retried, err := post(1)
	r.retries += retried
	if err != nil {
		r.unavailable = err.Error()
		fmt.Fprintf(out, "  not available (%s)\n", err)
		return r
	}
	r.created, r.latencies, r.finished = 1, append(r.latencies, d), append(r.finished, time.Since(start))

	var (
		mu   sync.Mutex
		next atomic.Int64
		wg   sync.WaitGroup
	)
	next.Store(1)
	progress := time.NewTicker(10 * time.Second)
	defer progress.Stop()
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-progress.C:
				mu.Lock()
				fmt.Fprintf(out, "  %d/%d after %s\n", r.created, want, time.Since(start).Round(time.Second))
				mu.Unlock()
			}
		}
	}()
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1))
				if i > want {
					return
				}
				d, retried, err := post(i)
				mu.Lock()
				r.retries += retried
				if err == nil {
					r.created++
					r.latencies = append(r.latencies, d)
					r.finished = append(r.finished, time.Since(start))
				} else if ctx.Err() == nil {
					r.failed++
					if r.firstErr == "" {
						r.firstErr = err.Error()
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(done)
	r.elapsed = time.Since(start)
	fmt.Fprintf(out, "  %d created in %s (%.0f/s)\n", r.created, r.elapsed.Round(time.Millisecond), r.rate())
	return r
}
