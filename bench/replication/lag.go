package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

// lagPoll is how often node1 is asked for the pushed ref: the lag's
// resolution.
const lagPoll = 10 * time.Millisecond

// lagResult is the replication lag of small pushes: from a push's
// acknowledgement on node0 to node1 listing its ref.
type lagResult struct {
	lags, pushes []time.Duration
	failure      string
}

// measureLag pushes one small commit at a time to a new repository on
// node0 and times, from the acknowledgement of each, how long node1 takes
// to list it. A first push (the repository's first copy on node1) is not
// counted.
func measureLag(ctx context.Context, g *corpus.Git, c *forgenode.Client, net *testnet, pushes int, tmp string, out io.Writer) lagResult {
	var r lagResult
	fail := func(err error) lagResult {
		r.failure = err.Error()
		fmt.Fprintf(out, "  failed: %v\n", err)
		return r
	}
	repo, err := createRepo(ctx, c, "lag")
	if err != nil {
		return fail(err)
	}
	work := filepath.Join(tmp, "lag-work")
	if _, err := g.Output(ctx, "", "init", "--quiet", "--initial-branch="+corpus.Branch, work); err != nil {
		return fail(err)
	}
	push := func(i int) (string, time.Duration, error) {
		if err := os.WriteFile(filepath.Join(work, "counter.txt"), fmt.Appendf(nil, "push %d\n", i), 0o644); err != nil {
			return "", 0, err
		}
		if _, err := g.Output(ctx, work, "add", "counter.txt"); err != nil {
			return "", 0, err
		}
		if _, err := g.Output(ctx, work, "commit", "--quiet", "-m", fmt.Sprintf("push %d", i)); err != nil {
			return "", 0, err
		}
		head, err := g.Output(ctx, work, "rev-parse", "HEAD")
		if err != nil {
			return "", 0, err
		}
		t0 := time.Now()
		_, err = g.Output(ctx, work, append(authed(c.Token), "push", "--quiet", c.GitURL(*repo), corpus.Branch)...)
		return strings.TrimSpace(head), time.Since(t0), err
	}
	ref := "refs/heads/" + corpus.Branch
	for i := 0; i <= pushes; i++ {
		head, took, err := push(i)
		if err != nil {
			return fail(fmt.Errorf("push %d: %w", i, err))
		}
		acked := time.Now()
		seen, err := net.waitAdvertises(ctx, 1, *repo, ref, head, lagPoll, time.Minute)
		if err != nil {
			return fail(err)
		}
		if i == 0 {
			fmt.Fprintf(out, "  first push (the repository's first copy on node1) seen after %s; not counted\n", seen.Sub(acked).Round(time.Millisecond))
			continue
		}
		r.pushes = append(r.pushes, took)
		r.lags = append(r.lags, seen.Sub(acked))
	}
	p50, p99 := percentiles(r.lags)
	fmt.Fprintf(out, "  lag p50 %s, p99 %s over %d pushes (each push took p50 %s)\n", ms(p50), ms(p99), len(r.lags), ms(percentile(r.pushes, 50)))
	return r
}

func percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	return percentile(ds, 50), percentile(ds, 99)
}

// percentile is the nearest-rank percentile p of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := int(p/100*float64(len(s))+0.999999) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }
