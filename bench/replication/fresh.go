package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

// pushBig pushes the bench repository (every branch) to a new repository
// on node0 and waits until node0 has stored its objects as IPFS blocks
// and node1 has replicated it, so the fresh nodes find both idle.
func pushBig(ctx context.Context, g *corpus.Git, c *forgenode.Client, net *testnet, r *report, out io.Writer) (*forgenode.Repo, error) {
	repo, err := createRepo(ctx, c, "big")
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if _, err := g.Output(ctx, r.big.Path, append(authed(c.Token), "push", "--quiet", c.GitURL(*repo), "refs/heads/*:refs/heads/*")...); err != nil {
		return nil, fmt.Errorf("push the repository to node0: %w", err)
	}
	r.bigPush = time.Since(t0)
	stored, err := c.WaitForBlocks(ctx)
	if err != nil {
		return nil, err
	}
	seen, err := net.waitAdvertises(ctx, 1, *repo, "refs/heads/"+corpus.Branch, r.big.Info.Head, 100*time.Millisecond, 30*time.Minute)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "  pushed in %s; node0 stored its blocks %s later; node1 listed it %s after the push returned\n",
		r.bigPush.Round(time.Millisecond), stored.Round(time.Millisecond), seen.Sub(t0.Add(r.bigPush)).Round(time.Millisecond))
	return repo, nil
}

// transfer is a timed copy of the repository.
type transfer struct {
	d     time.Duration
	bytes int64
}

func (t transfer) mbps() float64 { return mb(t.bytes) / t.d.Seconds() }

// cloneResult is git clone of the repository from its origin.
type cloneResult struct {
	rounds  []transfer
	failure string
}

// median is the round of median time.
func (c cloneResult) median() (transfer, bool) {
	if len(c.rounds) == 0 {
		return transfer{}, false
	}
	s := slices.Clone(c.rounds)
	slices.SortFunc(s, func(a, b transfer) int { return int(a.d - b.d) })
	return s[len(s)/2], true
}

// cloneRounds runs `git clone --bare --no-local` from url rounds times,
// checking each clone's head.
func cloneRounds(ctx context.Context, g *corpus.Git, url string, big *corpus.Repo, rounds int, tmp string, out io.Writer) cloneResult {
	var r cloneResult
	for i := range rounds {
		dest := filepath.Join(tmp, fmt.Sprintf("clone-%d.git", i))
		t0 := time.Now()
		_, err := g.Output(ctx, "", "clone", "--bare", "--no-local", "--quiet", url, dest)
		t := transfer{d: time.Since(t0)}
		if err == nil {
			t.bytes, err = corpus.PackBytes(dest)
		}
		if err == nil {
			var head string
			if head, err = g.Head(ctx, dest, corpus.Branch); err == nil && head != big.Info.Head {
				err = fmt.Errorf("the clone has %s at %s, want %s", corpus.Branch, head, big.Info.Head)
			}
		}
		os.RemoveAll(dest)
		if err != nil {
			r.failure = err.Error()
			fmt.Fprintf(out, "  clone %d failed: %v\n", i+1, err)
			return r
		}
		r.rounds = append(r.rounds, t)
		fmt.Fprintf(out, "  clone %d: %s, %.1f MB at %.1f MB/s\n", i+1, t.d.Round(time.Millisecond), mb(t.bytes), t.mbps())
	}
	return r
}

// freshResult is the repository replicated to a node that had none of it.
type freshResult struct {
	replicator time.Duration // the replicator's start to the repository published, from the node's log
	wall       time.Duration // the process's start to its git server listing the repository
	bytes      int64
	source     string // where the replicator says the objects came from
	failure    string
}

// replicateFresh brings node i's chain and index up to date without
// replicating anything (--seed none), restarts it to seed the repository
// alone, and times that replication. env is added to the node's
// environment both times.
func replicateFresh(ctx context.Context, g *corpus.Git, net *testnet, i int, repo forgenode.Repo, big *corpus.Repo, env []string, out io.Writer) freshResult {
	r := freshResult{bytes: big.Info.PackedBytes}
	fail := func(err error) freshResult {
		r.failure = err.Error()
		fmt.Fprintf(out, "  failed: %v\n", err)
		return r
	}
	// 1. Synced, nothing replicated.
	target, err := chainHeight(ctx, net.nodes[0].URL)
	if err != nil {
		return fail(err)
	}
	t0 := time.Now()
	if err := net.start(ctx, i, []string{"--seed", "none"}, env); err != nil {
		return fail(err)
	}
	for {
		h, err := chainHeight(ctx, net.nodes[i].URL)
		if err == nil && h >= target {
			break
		}
		if time.Since(t0) > 10*time.Minute {
			return fail(fmt.Errorf("node%d's index is at %d after %s, node0's at %d: %v", i, h, time.Since(t0).Round(time.Second), target, err))
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return fail(err)
		}
	}
	fmt.Fprintf(out, "  node%d synced %d blocks in %s without replicating; restarting it to seed %s ...\n", i, target, time.Since(t0).Round(time.Millisecond), repo.Path())
	if err := net.stopNode(i); err != nil {
		return fail(err)
	}
	// 2. Seeding the repository.
	logFrom := logSize(filepath.Join(net.dir, fmt.Sprintf("node%d.log", i)))
	t0 = time.Now()
	if err := net.start(ctx, i, []string{"--seed", "repo:" + repo.Path()}, env); err != nil {
		return fail(err)
	}
	seen, err := net.waitAdvertises(ctx, i, repo, "refs/heads/"+corpus.Branch, big.Info.Head, 100*time.Millisecond, 30*time.Minute)
	if err != nil {
		return fail(err)
	}
	r.wall = seen.Sub(t0)
	// The replicator logs the repository just after it publishes it.
	span, err := replicationSpan(net.nodes[i].LogPath, logFrom, repo.Name)
	for try := 0; err != nil && try < 20; try++ {
		sleep(ctx, 100*time.Millisecond)
		span, err = replicationSpan(net.nodes[i].LogPath, logFrom, repo.Name)
	}
	if err != nil {
		return fail(err)
	}
	r.replicator, r.source = span.done.Sub(span.started), span.source
	fmt.Fprintf(out, "  node%d replicated %.1f MB in %s (%.1f MB/s) from %s; %s from its process's start to its git server listing it\n",
		i, mb(r.bytes), r.replicator.Round(time.Millisecond), mb(r.bytes)/r.replicator.Seconds(), r.source, r.wall.Round(time.Millisecond))
	return r
}

// chainHeight is the height a node's index has projected.
func chainHeight(ctx context.Context, base string) (int64, error) {
	var s struct{ Height int64 }
	err := (&forgenode.Client{Base: base, HTTP: &http.Client{Timeout: 10 * time.Second}}).Call(ctx, "GET", "/api/v1/chain/status", nil, &s, nil)
	return s.Height, err
}

func logSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// span is a replication as the node's log tells it.
type span struct {
	started, done time.Time
	source        string
}

// replicationSpan reads the node's log from offset on: when its
// replicator started, where the objects came from, and when it logged
// the repository name replicated.
func replicationSpan(path string, offset int64, name string) (s span, err error) {
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return s, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		var rec struct {
			Time   time.Time
			Msg    string
			Name   string
			Source string
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		switch {
		case rec.Msg == "replicating public repositories":
			s.started = rec.Time
		case rec.Msg == "fetched the objects to replicate":
			s.source = rec.Source
		case rec.Msg == "replicated repository" && rec.Name == name:
			s.done = rec.Time // the last: a repository may take more than one pass
		}
	}
	if s.started.IsZero() || s.done.IsZero() {
		return s, fmt.Errorf("the node's log %s has no replicator start (%v) or no replication of %s (%v)", path, s.started, name, s.done)
	}
	if s.source == "" {
		s.source = "an unlogged source"
	}
	return s, sc.Err()
}
