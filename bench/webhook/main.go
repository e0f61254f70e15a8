// Command webhook is dForge's webhook delivery benchmark
// (`make bench-webhook`).
//
// It builds a node in process (internal/node, as `dforge serve` does, with
// --webhook-allow-private so its hook may reach a local receiver), makes a
// repository with one hook for issue events, and opens issues at -rate per
// second for -duration through the forge service (each a transaction on
// the node's chain). A local HTTP receiver notes when each delivery
// arrives; the latency of a delivery is that moment minus the time of the
// block holding its issue (the block header's time). It prints p50, p99
// and the maximum, and how many deliveries arrived; it prints figures
// only and never fails on timing.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"slices"
	"sync"
	"testing/fstest"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/webhook"
)

type options struct {
	rate     int
	duration time.Duration
	inflight int
}

func main() {
	var o options
	flag.IntVar(&o.rate, "rate", 100, "issues opened per second")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "how long the load runs")
	flag.IntVar(&o.inflight, "inflight", 1000, "most actions waiting for their block at once")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-webhook:", err)
		os.Exit(1)
	}
}

// arrivals are the receiver's notes: issue number -> when its delivery came.
type arrivals struct {
	mu sync.Mutex
	at map[uint64]time.Time
}

func (a *arrivals) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	var p struct {
		Number uint64 `json:"number"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &p) == nil && p.Number != 0 {
		a.mu.Lock()
		if _, seen := a.at[p.Number]; !seen {
			a.at[p.Number] = now
		}
		a.mu.Unlock()
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *arrivals) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.at)
}

func run(ctx context.Context, o options, out io.Writer) error {
	tmp, err := os.MkdirTemp("", "dforge-bench-webhook-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := node.Build(ctx, node.Config{
		DataDir: tmp, RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0",
		Genesis: func(operator common.Address) app.Genesis {
			return app.Genesis{Params: app.Params{ChainID: 7772, Symbol: "DFG", Decimals: 6, UnbondingBlocks: 2},
				Operators: []common.Address{operator}}
		},
		Site:     node.Site{Dist: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}, Version: "bench"},
		Webhooks: node.WebhookConfig{AllowPrivate: true},
		Log:      log,
	})
	if err != nil {
		return fmt.Errorf("build the node: %w", err)
	}
	defer n.Close()

	recv := &arrivals{at: map[uint64]time.Time{}}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	key, _ := crypto.GenerateKey()
	owner := crypto.PubkeyToAddress(key.PublicKey)
	repo, err := n.Repos.Create(ctx, owner, gitrepos.CreateOptions{Name: "bench", README: []byte("# bench\n"),
		Author: gitstore.Signature{Name: "bench", Email: "bench@example.org", When: time.Now()}})
	if err != nil {
		return fmt.Errorf("create the repository: %w", err)
	}
	url, ctype, on := srv.URL, "json", true
	if _, err := n.Hooks.Create(ctx, webhook.Scope{RepoID: repo.ID}, webhook.Input{URL: &url, ContentType: &ctype, Active: &on,
		Events: []string{"issues"}}); err != nil {
		return fmt.Errorf("create the hook: %w", err)
	}

	fmt.Fprintf(out, "bench-webhook: %d issues/s for %s, one hook, a local receiver\n", o.rate, o.duration)
	heights, sent, failed := load(ctx, n, owner, repo.ID, o)
	// Let the last deliveries arrive (bounded).
	for deadline := time.Now().Add(30 * time.Second); recv.count() < sent && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	lat, err := latencies(ctx, n, recv, heights)
	if err != nil {
		return err
	}
	report(out, o, sent, failed, recv.count(), lat)
	return nil
}

// load opens issues at o.rate for o.duration and returns each issue's
// block height, by number.
func load(ctx context.Context, n *node.Node, owner common.Address, repo uint64, o options) (map[uint64]int64, int, int) {
	var mu sync.Mutex
	heights := map[uint64]int64{}
	failed := 0
	sem := make(chan struct{}, o.inflight)
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / time.Duration(o.rate))
	defer tick.Stop()
	end := time.Now().Add(o.duration)
	sent := 0
	for seq := 0; time.Now().Before(end) && ctx.Err() == nil; seq++ {
		<-tick.C
		sem <- struct{}{}
		wg.Add(1)
		sent++
		go func() {
			defer func() { <-sem; wg.Done() }()
			res, err := n.Forge.Do(ctx, owner, chainforge.IssueCreate{Repo: repo, Title: fmt.Sprintf("bench %d", seq)})
			mu.Lock()
			defer mu.Unlock()
			if err != nil || res.Change.Issue == nil {
				failed++
				return
			}
			heights[res.Change.Issue.Number] = res.Height
		}()
	}
	wg.Wait()
	return heights, sent, failed
}

// latencies are the deliveries' arrival minus their block's time.
func latencies(ctx context.Context, n *node.Node, recv *arrivals, heights map[uint64]int64) ([]time.Duration, error) {
	blockTime := map[int64]time.Time{}
	recv.mu.Lock()
	defer recv.mu.Unlock()
	var out []time.Duration
	for number, h := range heights {
		at, ok := recv.at[number]
		if !ok {
			continue
		}
		bt, ok := blockTime[h]
		if !ok {
			b, err := n.Chain.Client().Block(ctx, &h)
			if err != nil {
				return nil, fmt.Errorf("read block %d: %w", h, err)
			}
			bt = b.Block.Time
			blockTime[h] = bt
		}
		out = append(out, at.Sub(bt))
	}
	if len(out) == 0 {
		return nil, errors.New("no delivery arrived")
	}
	slices.Sort(out)
	return out, nil
}

func pct(d []time.Duration, p int) time.Duration { return d[min(len(d)-1, len(d)*p/100)] }

func report(out io.Writer, o options, sent, failed, got int, lat []time.Duration) {
	fmt.Fprintf(out, "  issues opened:        %d (%d refused or failed), %.1f/s\n", sent-failed, failed, float64(sent-failed)/o.duration.Seconds())
	fmt.Fprintf(out, "  deliveries received:  %d\n", got)
	fmt.Fprintf(out, "  latency after block:  p50 %s  p99 %s  max %s  (target p99 < 1s)\n",
		pct(lat, 50).Round(time.Millisecond), pct(lat, 99).Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
}
