package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/dforge/dforge/bench/internal/corpus"
	"github.com/dforge/dforge/internal/forgenode"
)

const (
	dforgeServer  = "dForge"
	backendServer = "git http-backend"
)

// transfer is one timed clone or push.
type transfer struct {
	d     time.Duration
	bytes int64
}

func (t transfer) mbps() float64 {
	if t.d <= 0 {
		return 0
	}
	return mb(t.bytes) / t.d.Seconds()
}

// median is the transfer of median speed.
func median(ts []transfer) (transfer, bool) {
	if len(ts) == 0 {
		return transfer{}, false
	}
	s := slices.Clone(ts)
	sort.Slice(s, func(i, j int) bool { return s[i].mbps() < s[j].mbps() })
	return s[len(s)/2], true
}

type gitResult struct {
	repo        *forgenode.Repo // the dForge repository holding the large repository, for the API figures
	unavailable string          // why the dForge side is missing, if it is
	firstPush   transfer
	source      string // what http-backend served for the clones
	clones      map[string][]transfer
	pushes      map[string][]transfer
	// stored is, for each dForge push, the time from its return until the
	// node had stored its objects as IPFS blocks (they are stored after
	// the push is acknowledged; the blockstore is emptied before each).
	stored   []time.Duration
	failures []string
}

// benchGit pushes the large repository into dForge, then times clones of
// that very bare repository from dForge and from http-backend, and pushes
// of the large repository into fresh repositories of each; rounds
// alternate the order of the two servers. A dForge API or git failure
// leaves http-backend's figures alone.
func benchGit(ctx context.Context, o options, g *gitTool, c *forgenode.Client, data string, big *corpus.Repo, tmp string, n *notes, out io.Writer) *gitResult {
	r := &gitResult{clones: map[string][]transfer{}, pushes: map[string][]transfer{}}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		r.failures = append(r.failures, err.Error())
		return r
	}
	// 1. The large repository in dForge, through the API and git.
	backendRoot, backendPath := filepath.Dir(big.Path), "/"+filepath.Base(big.Path)
	r.source = "the benchmark's cached copy (dForge does not hold one)"
	repo, err := c.CreateRepo(ctx, "bench-big")
	if err == nil {
		fmt.Fprintf(out, "  pushing the repository into %s ...\n", repo.Path())
		r.firstPush.bytes = big.Info.PackedBytes
		r.firstPush.d, err = g.push(ctx, big.Path, authed(c.GitURL(*repo), c.Token))
		if err != nil {
			err = fmt.Errorf("push into a new dForge repository: %w", err)
		}
	}
	if err != nil {
		r.unavailable = err.Error()
		fmt.Fprintf(out, "  dForge: not available (%s)\n", err)
	} else {
		r.repo = repo
		fmt.Fprintf(out, "  pushed in %s (%.1f MB/s)\n", r.firstPush.d.Round(time.Millisecond), r.firstPush.mbps())
		r.blocksStored(ctx, c, out)
		if dir, ok := bareDir(data, repo.ID); ok {
			backendRoot, backendPath = filepath.Join(data, "git"), "/"+filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir)
			r.source = "the bare repository dForge holds (" + filepath.Join("<data>", "git", backendPath[1:]) + ")"
			if head, err := g.Head(ctx, dir, corpus.Branch); err != nil || head != big.Info.Head {
				n.add("dForge's copy of the repository has %s at %q (%v), the cache at %s", corpus.Branch, head, err, big.Info.Head)
			}
		} else {
			n.add("dForge's bare repository for id %d was not found under <data>/git, so http-backend served the cached copy", repo.ID)
		}
	}
	backend := g.httpBackend(backendRoot)
	defer backend.Close()
	if err := checkHTTPBackend(ctx, backend.URL+backendPath); err != nil {
		r.failures = append(r.failures, "http-backend: "+err.Error())
		return r
	}
	servers := map[string]remote{backendServer: {url: backend.URL + backendPath}}
	if r.repo != nil {
		servers[dforgeServer] = remote{url: c.GitURL(*r.repo)}
	}

	// 2. Clones, alternating which server goes first.
	for round := range o.rounds {
		for _, name := range order(round, servers) {
			dest := filepath.Join(tmp, "clone-"+strconv.Itoa(round))
			syscall.Sync() // as before each push
			var t transfer
			var err error
			t.d, t.bytes, err = g.clone(ctx, servers[name], dest)
			if err == nil {
				var head string
				if head, err = g.Head(ctx, dest, corpus.Branch); err == nil && head != big.Info.Head {
					err = fmt.Errorf("the clone has %s at %s, want %s", corpus.Branch, head, big.Info.Head)
				}
			}
			os.RemoveAll(dest)
			if ctx.Err() != nil {
				return r
			}
			if err != nil {
				r.failures = append(r.failures, fmt.Sprintf("clone from %s, round %d: %v", name, round+1, err))
				continue
			}
			r.clones[name] = append(r.clones[name], t)
			fmt.Fprintf(out, "  clone round %d, %s: %s, %.1f MB/s\n", round+1, name, t.d.Round(time.Millisecond), t.mbps())
		}
	}

	// 3. Pushes into fresh empty repositories.
	backendPush := g.httpBackend(filepath.Join(tmp, "backend"))
	defer backendPush.Close()
	for round := range o.rounds {
		for _, name := range order(round, servers) {
			if name == dforgeServer {
				emptyBlockstore(data, n)
			}
			// Each push starts on an idle disk: what the last round wrote
			// or removed (the blocks, the last repository) is written back
			// first, not during the next server's push.
			syscall.Sync()
			t, err := pushFresh(ctx, g, c, name, round, big, tmp, backendPush.URL)
			if ctx.Err() != nil {
				return r
			}
			if err != nil {
				r.failures = append(r.failures, fmt.Sprintf("push to %s, round %d: %v", name, round+1, err))
				continue
			}
			r.pushes[name] = append(r.pushes[name], t)
			fmt.Fprintf(out, "  push round %d, %s: %s, %.1f MB/s\n", round+1, name, t.d.Round(time.Millisecond), t.mbps())
			if name == dforgeServer {
				r.blocksStored(ctx, c, out)
			}
		}
	}
	return r
}

// blocksStored records how long after a push the node took to store its
// objects as blocks. The next round thus starts on an idle node.
func (r *gitResult) blocksStored(ctx context.Context, c *forgenode.Client, out io.Writer) {
	d, err := c.WaitForBlocks(ctx)
	if err != nil {
		r.failures = append(r.failures, "blocks probe: "+err.Error())
		return
	}
	r.stored = append(r.stored, d)
	fmt.Fprintf(out, "    its objects were stored as IPFS blocks %s after the push returned\n", d.Round(time.Millisecond))
}

// emptyBlockstore removes the node's stored blocks, so the next push
// stores all of its objects again, as the first push into the node did.
func emptyBlockstore(data string, n *notes) {
	dirs, _ := filepath.Glob(filepath.Join(data, "blocks", "[0-9a-f][0-9a-f]"))
	for _, d := range dirs {
		if err := os.RemoveAll(d); err != nil {
			n.add("emptying the blockstore: %v", err)
		}
	}
}

// order is the servers of a round: dForge first in even rounds.
func order(round int, servers map[string]remote) []string {
	names := []string{dforgeServer, backendServer}
	if round%2 == 1 {
		names[0], names[1] = names[1], names[0]
	}
	return slices.DeleteFunc(names, func(s string) bool { _, ok := servers[s]; return !ok })
}

// pushFresh pushes the large repository into a new empty repository of
// the named server: one created through dForge's API, or a `git init
// --bare` of http-backend's (removed afterwards).
func pushFresh(ctx context.Context, g *gitTool, c *forgenode.Client, server string, round int, big *corpus.Repo, tmp, backendURL string) (transfer, error) {
	t := transfer{bytes: big.Info.PackedBytes}
	var err error
	if server == dforgeServer {
		repo, err := c.CreateRepo(ctx, fmt.Sprintf("bench-push-%d", round+1))
		if err != nil {
			return t, err
		}
		t.d, err = g.push(ctx, big.Path, authed(c.GitURL(*repo), c.Token))
		return t, err
	}
	name := fmt.Sprintf("push-%d.git", round+1)
	dir := filepath.Join(tmp, "backend", name)
	defer os.RemoveAll(dir)
	if err := g.initBare(ctx, dir); err != nil {
		return t, err
	}
	t.d, err = g.push(ctx, big.Path, remote{url: backendURL + "/" + name})
	return t, err
}

// bareDir finds repository id under <data>/git/<owner>/<id>.git.
func bareDir(data string, id int64) (string, bool) {
	dirs, _ := filepath.Glob(filepath.Join(data, "git", "*", strconv.FormatInt(id, 10)+".git"))
	if len(dirs) != 1 {
		return "", false
	}
	return dirs[0], true
}
