// Command replication is dForge's replication benchmark
// (`make bench-replication`).
//
// It writes a testnet with `dforge testnet` (two validators, two full
// nodes) and runs its nodes as subprocesses of the dforge binary built from
// this tree, driving them from outside as users do (Sign-In with Ethereum,
// a personal access token, git over Smart HTTP):
//
//  1. Replication lag: -pushes small pushes to node0, one at a time; the
//     time from a push's acknowledgement to node1 advertising the new ref
//     (its /info/refs, polled every 10 ms); p50 and p99.
//  2. The bench repository (bench-forge's, -big-mb of packed data with the
//     Go sources' history) pushed to node0, then `git clone --bare` of it
//     from node0, -rounds times: the yardstick.
//  3. A fresh node (node2, chain synced, nothing replicated yet) started
//     to seed that repository: the replicator's time from its start to the
//     repository published, as its log records it; against the clone.
//  4. The same for node3 with every dForge peer unreachable over HTTP (a
//     dead http_proxy for its git), so the objects come over bitswap from
//     node0 and node1's IPFS hosts (--ipfs-peer).
//  5. Each node's resident memory at the end and at its peak; the part
//     libp2p and bitswap add is bench-p2p's figure (make bench-p2p).
//  6. Each node's disk once its block queue is empty: du of its bare
//     repositories and of its blockstore (issue 27: together at most
//     1.2 × git's own size).
//
// It prints figures only and never fails on timing. Everything listens on
// 127.0.0.1; the temporary directory is removed at the end, even after
// Ctrl-C or the -timeout.
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
	pushes  int
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
	flag.IntVar(&o.pushes, "pushes", 50, "small pushes whose replication lag is measured")
	flag.IntVar(&o.bigMB, "big-mb", 200, "packed size in MB of the repository replicated to fresh nodes (bench-forge's, shared cache)")
	flag.IntVar(&o.rounds, "rounds", 3, "git clones of the repository from its origin (median reported)")
	flag.BoolVar(&o.quick, "quick", false, "a small smoke run: -pushes 10 -big-mb 16 -rounds 1 unless given")
	flag.StringVar(&o.bin, "bin", "", "dforge binary to run (default: go build ./cmd/dforge into the temporary directory)")
	flag.StringVar(&o.cache, "cache", corpus.DefaultCache(), "directory where the repository is built once and reused")
	flag.DurationVar(&o.timeout, "timeout", 60*time.Minute, "abort the run after this long")
	flag.Parse()
	if o.quick {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for name, apply := range map[string]func(){
			"pushes": func() { o.pushes = 10 }, "big-mb": func() { o.bigMB = 16 }, "rounds": func() { o.rounds = 1 },
		} {
			if !set[name] {
				apply()
			}
		}
	}
	if o.pushes < 1 || o.bigMB < 1 || o.rounds < 1 {
		fmt.Fprintln(os.Stderr, "bench-replication: -pushes, -big-mb and -rounds must be positive")
		return 2
	}
	var err error
	if o.cache, err = filepath.Abs(o.cache); err != nil {
		fmt.Fprintln(os.Stderr, "bench-replication:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-replication:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-bench-replication-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	started := time.Now()
	g, err := corpus.NewGit(tmp)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "dForge replication benchmark: GOMAXPROCS=%d, %s/%s, %s%s\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, g.Version, loadAvg())
	r := &report{opts: o}
	defer func() {
		fmt.Fprintln(out)
		r.print(out)
		fmt.Fprintf(out, "\nThe run took %s.\n", time.Since(started).Round(time.Second))
	}()

	// 0. The binary, the repository, the network.
	fmt.Fprintln(out, "[0/4] the dforge binary, the cached repository, a testnet of 2 validators and 2 full nodes ...")
	bin, err := forgenode.Binary(ctx, o.bin, tmp, r.note, out)
	if err != nil {
		return err
	}
	if r.big, err = corpus.Big(ctx, g, o.cache, o.bigMB, out); err != nil {
		return fmt.Errorf("build the %d MB repository: %w", o.bigMB, err)
	}
	net, err := newTestnet(ctx, bin, tmp, out)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, net.stop(r)) }()
	for i := range 2 {
		if err := net.start(ctx, i, nil, nil); err != nil {
			return err
		}
	}
	c, err := net.signIn(ctx, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  node0 %s and node1 %s up; signed in on node0 as %s\n", net.nodes[0].URL, net.nodes[1].URL, c.Login)

	// 1. Lag.
	fmt.Fprintf(out, "[1/4] replication lag of %d small pushes to node0, seen on node1 ...\n", o.pushes)
	r.lag = measureLag(ctx, g, c, net, o.pushes, tmp, out)
	if err := ctx.Err(); err != nil {
		return err
	}

	// 2. The repository on node0, and git clone of it.
	fmt.Fprintf(out, "[2/4] the %.0f MB repository pushed to node0, and git clone of it from node0 (%d round(s)) ...\n", mb(r.big.Info.PackedBytes), o.rounds)
	repo, err := pushBig(ctx, g, c, net, r, out)
	if err != nil {
		return err
	}
	r.clone = cloneRounds(ctx, g, c.GitURL(*repo), r.big, o.rounds, tmp, out)
	if err := ctx.Err(); err != nil {
		return err
	}

	// 3. and 4. Fresh nodes.
	fmt.Fprintln(out, "[3/4] a fresh node replicates it from its dForge peers (git) ...")
	r.viaGit = replicateFresh(ctx, g, net, 2, *repo, r.big, nil, out)
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintln(out, "[4/4] a fresh node replicates it with every dForge peer unreachable (bitswap) ...")
	peers, err := net.ipfsPeers(ctx, c)
	if err != nil {
		r.viaBitswap.failure = err.Error()
		return nil
	}
	// curl takes the lowercase http_proxy for http:// URLs; nothing listens
	// on port 9 (discard), so each fetch from a peer fails at once.
	env := []string{"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9", "no_proxy=", "NO_PROXY="}
	r.viaBitswap = replicateFresh(ctx, g, net, 3, *repo, r.big, append(env, "DFORGE_IPFS_PEERS="+strings.Join(peers, ",")), out)
	r.memory = net.memory()
	fmt.Fprintln(out, "  disk per node, once its block queue is empty ...")
	r.disk = net.disk(ctx, out)
	return ctx.Err()
}

func mb(n int64) float64 { return float64(n) / 1e6 }

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return ", load average " + strings.Join(f[:3], " ")
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
