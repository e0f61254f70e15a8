// Command p2p measures the resident memory the IPFS host (libp2p and
// bitswap, internal/p2p) adds to a node (`make bench-p2p`).
//
// It runs itself three times: this process writes -blocks random git blobs
// into a blockstore, then starts a serving node and a fetching node, each
// its own process so that each one's RSS is its own. Every node reads its
// VmRSS after opening its blockstore (baseline) and again with the host
// started; the fetching node then takes every block by CID over bitswap on
// loopback TCP. Meanwhile this process samples both nodes' VmRSS every
// 20 ms for the peak. It prints figures only; the target (under 100 MB
// added per node) is shown next to them and never fails the run.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/p2p"
)

func main() {
	role := flag.String("role", "", "internal: serve or fetch")
	dir := flag.String("dir", "", "internal: the blockstore")
	peerAddr := flag.String("peer", "", "internal: the serving node's address")
	n := flag.Int("blocks", 1000, "blocks to serve")
	maxSize := flag.Int("max-size", 64<<10, "largest block in bytes (sizes are uniform from 64 B up to it)")
	workers := flag.Int("workers", 16, "concurrent fetches")
	flag.Parse()
	var err error
	switch *role {
	case "serve":
		err = serve(*dir)
	case "fetch":
		err = fetch(*dir, *peerAddr, *workers)
	default:
		err = run(*n, *maxSize, *workers)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-p2p:", err)
		os.Exit(1)
	}
}

// report is what a node process prints on its last line.
type report struct {
	Baseline, Started, After int64 // VmRSS, bytes
	Fetched                  int
	Bytes                    int64
	Took                     time.Duration
}

func run(n, maxSize, workers int) error {
	tmp, err := os.MkdirTemp("", "bench-p2p-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	// 1. The blocks: random blobs in their git loose form.
	served := filepath.Join(tmp, "served")
	cids, total, err := writeBlocks(served, n, maxSize)
	if err != nil {
		return err
	}
	list := filepath.Join(tmp, "cids")
	if err := os.WriteFile(list, []byte(strings.Join(cids, "\n")), 0o644); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}

	// 2. The serving node; it prints its address, then its report once
	// its stdin closes.
	srv := exec.Command(self, "-role", "serve", "-dir", served)
	srv.Stderr = os.Stderr
	srvIn, _ := srv.StdinPipe()
	srvOut, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		return err
	}
	defer srv.Process.Kill()
	lines := bufio.NewScanner(srvOut)
	if !lines.Scan() {
		return fmt.Errorf("the serving node did not start")
	}
	addr := lines.Text()

	// 3. The fetching node, sampled with the server until it is done.
	fet := exec.Command(self, "-role", "fetch", "-dir", filepath.Join(tmp, "fetched"), "-peer", addr, "-workers", strconv.Itoa(workers))
	fet.Stdin, _ = os.Open(list)
	fet.Stderr = os.Stderr
	fetOut, _ := fet.StdoutPipe()
	if err := fet.Start(); err != nil {
		return err
	}
	var srvPeak, fetPeak atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			srvPeak.Store(max(srvPeak.Load(), rss(srv.Process.Pid)))
			fetPeak.Store(max(fetPeak.Load(), rss(fet.Process.Pid)))
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	var fr report
	if err := json.NewDecoder(fetOut).Decode(&fr); err != nil {
		return fmt.Errorf("the fetching node: %w", err)
	}
	fet.Wait()
	close(stop)
	wg.Wait()
	srvIn.Close()
	if !lines.Scan() {
		return fmt.Errorf("the serving node did not report")
	}
	var sr report
	if err := json.Unmarshal(lines.Bytes(), &sr); err != nil {
		return err
	}
	srv.Wait()
	if fr.Fetched != n {
		return fmt.Errorf("fetched %d of %d blocks", fr.Fetched, n)
	}

	// 4. The figures.
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("bench-p2p: %d blocks, %s in all (64 B to %d KiB each), %d concurrent fetches over loopback TCP; %d CPUs, load %s\n",
		n, mib(total), maxSize>>10, workers, runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Printf("fetched in %s (%.0f blocks/s, %s/s)\n\n", fr.Took.Round(time.Millisecond), float64(n)/fr.Took.Seconds(), mib(int64(float64(total)/fr.Took.Seconds())))
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "node\tRSS before host\twith host\tpeak while serving\tafter\tadded (peak - before)\ttarget\t")
	row := func(name string, r report, peak int64) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t< 100 MB\t\n", name, mib(r.Baseline), mib(r.Started), mib(max(peak, r.After)), mib(r.After), mib(max(peak, r.After)-r.Baseline))
	}
	row("serving", sr, srvPeak.Load())
	row("fetching", fr, fetPeak.Load())
	return tw.Flush()
}

// writeBlocks stores n random blobs and returns their CIDs and total size.
func writeBlocks(dir string, n, maxSize int) ([]string, int64, error) {
	s, err := blocks.Open(dir, quiet)
	if err != nil {
		return nil, 0, err
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var cids []string
	var total int64
	for range n {
		body := make([]byte, 64+rng.IntN(max(maxSize-64, 1)))
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
		data := append([]byte("blob "+strconv.Itoa(len(body))+"\x00"), body...)
		c, err := cid.V1Builder{Codec: blocks.GitRaw, MhType: 0x11}.Sum(data)
		if err != nil {
			return nil, 0, err
		}
		if err := s.Put(c, data); err != nil {
			return nil, 0, err
		}
		cids = append(cids, c.String())
		total += int64(len(data))
	}
	return cids, total, nil
}

// startNode opens the blockstore in dir, reads the baseline, starts the
// host and reads RSS again.
func startNode(dir string, peers ...multiaddr.Multiaddr) (*p2p.Node, *blocks.Store, report, error) {
	var r report
	s, err := blocks.Open(dir, quiet)
	if err != nil {
		return nil, nil, r, err
	}
	r.Baseline = settledRSS()
	n, err := p2p.Start(context.Background(), p2p.Config{
		ListenAddrs: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")},
		Peers:       peers,
		Blockstore:  s.Blockstore(),
		Log:         quiet,
	})
	if err != nil {
		s.Close()
		return nil, nil, r, err
	}
	time.Sleep(500 * time.Millisecond) // the host's background work starts
	r.Started = settledRSS()
	return n, s, r, nil
}

func serve(dir string) error {
	n, s, r, err := startNode(dir)
	if err != nil {
		return err
	}
	defer s.Close()
	defer n.Close()
	fmt.Println(n.Addrs()[0])
	io.Copy(io.Discard, os.Stdin) // until the run is over
	r.After = settledRSS()
	return json.NewEncoder(os.Stdout).Encode(r)
}

func fetch(dir, peerAddr string, workers int) error {
	addr, err := p2p.ParsePeer(peerAddr)
	if err != nil {
		return err
	}
	n, s, r, err := startNode(dir, addr)
	if err != nil {
		return err
	}
	defer s.Close()
	defer n.Close()
	list, err := io.ReadAll(os.Stdin)
	if err != nil {
		return err
	}
	cids := strings.Fields(string(list))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	jobs := make(chan cid.Cid)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				blk, err := n.Fetch(ctx, c)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				} else if err == nil {
					r.Fetched++
					r.Bytes += int64(len(blk.RawData()))
				}
				mu.Unlock()
			}
		}()
	}
	for _, s := range cids {
		c, err := cid.Decode(s)
		if err != nil {
			close(jobs)
			return err
		}
		jobs <- c
	}
	close(jobs)
	wg.Wait()
	r.Took = time.Since(start)
	if firstErr != nil {
		return firstErr
	}
	r.After = settledRSS()
	return json.NewEncoder(os.Stdout).Encode(r)
}

// settledRSS is VmRSS after a GC has returned what it can to the OS.
func settledRSS() int64 {
	runtime.GC()
	debug.FreeOSMemory()
	return rss(os.Getpid())
}

// rss reads a process's VmRSS in bytes (0 once it is gone).
func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
