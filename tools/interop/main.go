// Command interop checks that a Kubo node fetches a dForge node's public git
// objects by CID over bitswap (`make interop`).
//
// It builds Kubo once into a cache outside the repository, runs `dforge
// serve` on loopback with a fresh data dir, signs a user in (SIWE), creates
// a public repository and pushes a few commits with git, then starts a Kubo
// daemon on loopback with no bootstrap peers, no routing and no autoconf,
// connects it to the dForge node and asks it for a commit, a tree and a
// blob (`ipfs block get`) and the commit's whole DAG (`ipfs dag export`).
// Every block must hash to its git id and equal `git cat-file`'s object;
// the CAR must hold exactly the objects `git rev-list --objects` lists.
// Nothing it starts talks to a non-loopback address; everything it starts
// is stopped when it ends, also on Ctrl-C.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

const kuboVersion = "v0.42.0"

func main() {
	bin := flag.String("bin", "bin/dforge", "the dforge binary to run (make build)")
	ipfsBin := flag.String("ipfs", os.Getenv("DFORGE_KUBO_BIN"), "a Kubo "+kuboVersion+" binary to use instead of the cached build (env DFORGE_KUBO_BIN)")
	cache := flag.String("kubo-cache", os.Getenv("DFORGE_KUBO_CACHE"), "where Kubo is built and kept (env DFORGE_KUBO_CACHE; default <user cache dir>/dforge/kubo-"+kuboVersion+")")
	keep := flag.Bool("keep", false, "keep the temporary directory (logs, data dirs) after the run")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	r := &run{out: os.Stdout}
	err := r.main(ctx, *bin, *ipfsBin, *cache, *keep)
	stop()
	r.summary(err)
	if err != nil || r.failed() {
		os.Exit(1)
	}
}

// run is one interop run: its checks and timings, and what to stop.
type run struct {
	out     *os.File
	checks  []check
	timings []timing
	cleanup []func()
	tmp     string
}

type check struct {
	name string
	err  error
}

type timing struct {
	name string
	d    time.Duration
}

func (r *run) logf(format string, args ...any) {
	fmt.Fprintf(r.out, "interop: "+format+"\n", args...)
}

func (r *run) check(name string, err error) {
	r.checks = append(r.checks, check{name, err})
	if err != nil {
		r.logf("FAIL %s: %v", name, err)
	} else {
		r.logf("ok   %s", name)
	}
}

func (r *run) time(name string, t0 time.Time) time.Duration {
	d := time.Since(t0)
	r.timings = append(r.timings, timing{name, d})
	return d
}

func (r *run) failed() bool {
	for _, c := range r.checks {
		if c.err != nil {
			return true
		}
	}
	return false
}

// onExit runs f when the run ends, last registered first.
func (r *run) onExit(f func()) { r.cleanup = append(r.cleanup, f) }

func (r *run) main(ctx context.Context, bin, ipfsBin, cache string, keep bool) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-interop-")
	if err != nil {
		return err
	}
	r.tmp = tmp
	defer func() {
		for i := len(r.cleanup) - 1; i >= 0; i-- {
			r.cleanup[i]()
		}
		if keep || err != nil || r.failed() {
			r.logf("logs and data kept in %s", tmp)
			return
		}
		os.RemoveAll(tmp)
	}()

	// 1. Kubo, built once into the cache.
	if ipfsBin == "" {
		if cache == "" {
			dir, err := os.UserCacheDir()
			if err != nil {
				return fmt.Errorf("no cache dir for Kubo (set DFORGE_KUBO_CACHE): %w", err)
			}
			cache = filepath.Join(dir, "dforge", "kubo-"+kuboVersion)
		}
		if ipfsBin, err = r.kubo(ctx, cache); err != nil {
			return fmt.Errorf("build Kubo %s: %w", kuboVersion, err)
		}
	}

	// 2. The dForge node, a user, a public repository with a few commits.
	bin, err = filepath.Abs(bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no dforge binary (make build): %w", err)
	}
	node, err := r.startDForge(ctx, bin)
	if err != nil {
		return err
	}
	repo, err := r.pushRepo(ctx, node)
	if err != nil {
		return err
	}

	// 3. Kubo on loopback, connected to the dForge node only.
	k, err := r.startKubo(ctx, ipfsBin)
	if err != nil {
		return err
	}
	t0 := time.Now()
	if _, err := k.ipfs(ctx, 30*time.Second, "swarm", "connect", node.p2pAddr); err != nil {
		return fmt.Errorf("kubo: connect to the dForge node: %w", err)
	}
	r.logf("kubo connected to %s in %s", node.p2pAddr, r.time("swarm connect", t0).Round(time.Millisecond))
	// The dForge node must be Kubo's only peer, so whatever Kubo gets below
	// came from it.
	peers, err := k.ipfs(ctx, 30*time.Second, "swarm", "peers")
	if err == nil && strings.TrimSpace(string(peers)) != node.p2pAddr {
		err = fmt.Errorf("kubo's peers are %q, want only %s", strings.Fields(string(peers)), node.p2pAddr)
	}
	r.check("the dForge node is Kubo's only peer", err)

	// 4. The objects by CID, then the commit's whole DAG.
	r.fetchBlocks(ctx, k, repo)
	if ctx.Err() == nil {
		r.exportDAG(ctx, k, repo)
	}
	if ctx.Err() == nil {
		r.fetchBig(ctx, node, k, repo)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: %w", ctx.Err())
	}
	return nil
}

func (r *run) summary(err error) {
	fmt.Fprintln(r.out)
	fmt.Fprintln(r.out, "interop summary (Kubo "+kuboVersion+" <- dForge over bitswap)")
	for _, t := range r.timings {
		fmt.Fprintf(r.out, "  %-34s %s\n", t.name, t.d.Round(time.Millisecond))
	}
	pass := 0
	for _, c := range r.checks {
		if c.err == nil {
			pass++
			fmt.Fprintf(r.out, "  PASS %s\n", c.name)
		} else {
			fmt.Fprintf(r.out, "  FAIL %s: %s\n", c.name, firstLine(c.err.Error()))
		}
	}
	switch {
	case err != nil:
		fmt.Fprintf(r.out, "FAIL: %v\n", err)
	case r.failed():
		fmt.Fprintf(r.out, "FAIL: %d of %d checks failed\n", len(r.checks)-pass, len(r.checks))
	default:
		fmt.Fprintf(r.out, "PASS: %d checks\n", len(r.checks))
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
