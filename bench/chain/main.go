// Command chain is dForge's chain benchmark (`make bench-chain`).
//
// Everything runs in this process, one validator per chain:
//
//  1. dForge behind its HTTP API: signed transfers per second through
//     POST /api/v1/chain/txs (each request answers after its block commits),
//     then the latency of one POST at a time on the idle node.
//  2. dForge and CometBFT's kvstore example app, each on its own fresh node:
//     the same number of transactions of the same size sent straight to
//     CometBFT's RPC (the node's local client, BroadcastTxSync), timed until
//     every one is committed, in rounds that alternate between the two apps;
//     then BroadcastTxCommit one at a time on the idle nodes. The ratio of
//     the median rounds is dForge's throughput relative to kvstore's.
//
// It prints figures only and never fails on timing. Everything listens on
// 127.0.0.1 and lives in a temporary directory that is removed at the end.
package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing/fstest"
	"text/tabwriter"
	"time"

	"github.com/cometbft/cometbft/abci/example/kvstore"
	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	dforgenode "github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/store"
)

// loopback is where every listener binds: port 0 picks a free port.
const loopback = "tcp://127.0.0.1:0"

type options struct {
	accounts   int           // funded sender accounts
	txs        int           // transfers in each throughput run
	httpConns  int           // concurrent HTTP clients
	rpcConns   int           // concurrent RPC senders
	latency    int           // one-at-a-time transactions for the latency figures
	timeout    time.Duration // bound on the whole run
	rounds     int           // direct-RPC throughput runs per app; the median is reported
	httpRetry  time.Duration // how long a POST answered 5xx is retried
	idlePause  time.Duration // quiet time before the latency runs
	commitWait time.Duration // bound on waiting for a throughput run to commit
}

func main() { os.Exit(mainCode()) }

// mainCode is main with deferred calls that run before the exit.
func mainCode() int {
	var o options
	flag.IntVar(&o.accounts, "accounts", 50, "funded sender accounts")
	// 4000 stays under the node's 5000-transaction mempool, and is enough
	// for kvstore's run to span more than a couple of blocks.
	flag.IntVar(&o.txs, "txs", 4000, "signed transfers per throughput run (at most 5000, the mempool size)")
	flag.IntVar(&o.httpConns, "http-clients", 16, "concurrent clients for POST /api/v1/chain/txs")
	flag.IntVar(&o.rpcConns, "rpc-clients", 16, "concurrent senders for BroadcastTxSync")
	flag.IntVar(&o.latency, "latency", 200, "sequential transactions for the one-tx commit latency")
	flag.IntVar(&o.rounds, "rounds", 5, "direct-RPC throughput runs per app, alternating dForge and kvstore (median reported)")
	flag.DurationVar(&o.timeout, "timeout", 3*time.Minute, "abort the run after this long")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	o.httpRetry, o.idlePause, o.commitWait = 30*time.Second, 300*time.Millisecond, time.Minute
	if o.accounts < 1 || o.txs < 1 || o.txs > 5000 || o.httpConns < 1 || o.rpcConns < 1 || o.latency < 1 || o.rounds < 1 {
		fmt.Fprintln(os.Stderr, "bench-chain: every count must be at least 1, and -txs at most 5000")
		return 2
	}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-chain: cpu profile:", err)
			return 2
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-chain:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	tmp, err := os.MkdirTemp("", "dforge-bench-chain-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, os.RemoveAll(tmp)) }()
	logs := newLogCounter()
	log := slog.New(logs)

	fmt.Fprintf(out, "dForge chain benchmark: 1 validator, GOMAXPROCS=%d, %s/%s%s\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, loadAvg())
	fmt.Fprintf(out, "signing %d transfers from %d accounts...\n", o.rounds*o.txs+o.latency, o.accounts+1)
	t0 := time.Now()
	w, err := newWorkload(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "signed in %s; an encoded dForge transfer is %d bytes (kvstore txs are padded to the same size)\n\n",
		time.Since(t0).Round(time.Millisecond), w.txSize)

	r := report{opts: o, txSize: w.txSize}

	fmt.Fprintf(out, "[1/2] dForge: %d transfers through POST /api/v1/chain/txs, then %d one at a time ...\n", o.txs, o.latency)
	logs.drain()
	r.httpLoad, r.httpLat, err = benchHTTP(ctx, filepath.Join(tmp, "http"), o, w, log, logs)
	if err != nil {
		return fmt.Errorf("dForge over HTTP: %w", err)
	}

	fmt.Fprintf(out, "[2/2] dForge and kvstore: %d rounds of %d transfers each through BroadcastTxSync, then %d BroadcastTxCommit ...\n",
		o.rounds, o.txs, o.latency)
	appState, err := json.Marshal(w.genesis)
	if err != nil {
		return err
	}
	dir := filepath.Join(tmp, "dforge")
	dforge := &rpcTarget{name: "dForge", loads: w.rpcLoad, lat: w.latency, cfg: node.Config{
		Home: filepath.Join(dir, "comet"), ChainID: tx.ChainIDString(w.genesis.Params.ChainID), AppState: appState,
		RPCAddr: loopback, P2PAddr: loopback, Logger: log,
	}, newApp: func() (abci.Application, func() error, error) {
		st, err := state.Open(filepath.Join(dir, "app")) // on disk, as chain.Open does
		if err != nil {
			return nil, nil, err
		}
		a, err := app.New(st)
		if err != nil {
			return nil, nil, errors.Join(err, st.Close())
		}
		return a, st.Close, nil
	}}
	kv := &rpcTarget{name: "kvstore", loads: w.kvLoad, lat: w.kvLatency, cfg: node.Config{
		Home: filepath.Join(tmp, "kvstore", "comet"), ChainID: "kvstore-bench",
		RPCAddr: loopback, P2PAddr: loopback, Logger: log,
	}, newApp: func() (abci.Application, func() error, error) {
		return kvstore.NewInMemoryApplication(), func() error { return nil }, nil
	}}
	logs.drain() // the shutdown of step 1
	err = benchRPC(ctx, o, logs, dforge, kv)
	r.dforge, r.kv = dforge, kv
	if err != nil {
		return err
	}

	fmt.Fprintln(out)
	r.print(out)
	return nil
}

// ---- workload ----------------------------------------------------------------

type wallet struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

// workload is every transaction of the run, signed before any clock starts.
// The dForge chains of steps 1 and 2 start from the same genesis, so the same
// signed transfers are valid on both.
type workload struct {
	genesis app.Genesis
	txSize  int

	httpLoad  [][]signedTx // per HTTP client, in nonce order per account (round 0's transfers)
	rpcLoad   [][][][]byte // per round, per RPC sender; each round continues the nonces
	kvLoad    [][][][]byte // kvstore txs shaped like rpcLoad
	latency   [][]byte     // one more account's transfers, nonces 0, 1, 2, ...
	latBody   [][]byte     // the same, as POST bodies
	kvLatency [][]byte
}

type signedTx struct {
	raw  []byte // tx.Encode: what CometBFT carries
	body []byte // the JSON a wallet POSTs
}

func newWorkload(o options) (*workload, error) {
	params := app.DefaultParams()
	// Senders 0..accounts-1 carry the load; one more account is kept for the
	// latency runs so its nonces start at 0 whatever the load did.
	wallets := make([]wallet, o.accounts+1)
	allocs := make([]ledger.Allocation, len(wallets))
	for i := range wallets {
		k, err := crypto.GenerateKey()
		if err != nil {
			return nil, err
		}
		wallets[i] = wallet{key: k, addr: crypto.PubkeyToAddress(k.PublicKey)}
		allocs[i] = ledger.Allocation{Address: wallets[i].addr, Amount: 1_000_000_000_000}
	}
	w := &workload{genesis: app.Genesis{Params: params, Allocations: allocs}}

	sign := func(from wallet, to common.Address, nonce uint64) (signedTx, error) {
		env, err := tx.Sign(from.key, tx.KindTransfer, map[string]any{
			"from": from.addr.Hex(), "to": to.Hex(), "amount": "1000", "nonce": strconv.FormatUint(nonce, 10),
		}, params.ChainID)
		if err != nil {
			return signedTx{}, err
		}
		raw, err := tx.Encode(env)
		if err != nil {
			return signedTx{}, err
		}
		body, err := json.Marshal(env)
		return signedTx{raw: raw, body: body}, err
	}

	// The load: transfer i is sent by account i mod accounts; account a
	// belongs to client a mod clients, so every account's nonces go out in
	// order from one client. Both client counts get their own split of the
	// same transfers.
	senders := wallets[:o.accounts]
	all := make([]signedTx, o.rounds*o.txs)
	nonces := make([]uint64, o.accounts)
	for i := range all {
		a := i % o.accounts
		to := wallets[(a+1)%len(wallets)].addr
		s, err := sign(senders[a], to, nonces[a])
		if err != nil {
			return nil, err
		}
		nonces[a]++
		all[i] = s
		w.txSize = max(w.txSize, len(s.raw))
	}
	w.httpLoad = make([][]signedTx, o.httpConns)
	for i, s := range all[:o.txs] {
		c := (i % o.accounts) % o.httpConns
		w.httpLoad[c] = append(w.httpLoad[c], s)
	}
	for r := range o.rounds {
		rpc, kv := make([][][]byte, o.rpcConns), make([][][]byte, o.rpcConns)
		for i := r * o.txs; i < (r+1)*o.txs; i++ {
			c := (i % o.accounts) % o.rpcConns
			rpc[c] = append(rpc[c], all[i].raw)
			kv[c] = append(kv[c], kvTx("load", i, w.txSize))
		}
		w.rpcLoad, w.kvLoad = append(w.rpcLoad, rpc), append(w.kvLoad, kv)
	}
	lat := wallets[o.accounts]
	for i := range o.latency {
		s, err := sign(lat, wallets[0].addr, uint64(i))
		if err != nil {
			return nil, err
		}
		w.latency = append(w.latency, s.raw)
		w.latBody = append(w.latBody, s.body)
		w.kvLatency = append(w.kvLatency, kvTx("lat", i, w.txSize))
	}
	return w, nil
}

// kvTx is a kvstore "key=value" transaction of exactly size bytes with a
// unique key, so none is a duplicate the mempool cache would drop.
func kvTx(prefix string, i, size int) []byte {
	key := fmt.Sprintf("%s-%08d", prefix, i)
	pad := max(size-len(key)-1, 1)
	return []byte(key + "=" + strings.Repeat("v", pad))
}

// ---- step 1: the HTTP API ------------------------------------------------------

type loadResult struct {
	sent, ok  int
	rejected  int
	retries   int // 5xx answers retried (HTTP only)
	firstErr  string
	elapsed   time.Duration
	latencies []time.Duration // per request, HTTP only
	blocks    int
}

func (l loadResult) tps() float64 {
	if l.elapsed <= 0 {
		return 0
	}
	return float64(l.ok) / l.elapsed.Seconds()
}

type latResult struct {
	logs      []logLine // warnings and errors logged during the step
	n, ok     int
	firstErr  string
	latencies []time.Duration
}

func benchHTTP(ctx context.Context, dir string, o options, w *workload, log *slog.Logger, logs *logCounter) (load loadResult, lat latResult, err error) {
	ch, err := chain.Open(ctx, chain.Config{
		Dir: filepath.Join(dir, "chain"), RPCAddr: loopback, P2PAddr: loopback, Genesis: w.genesis, Logger: log,
	})
	if err != nil {
		return load, lat, err
	}
	defer func() { err = errors.Join(err, ch.Close()) }()
	st, err := store.Open(ctx, filepath.Join(dir, "web.db"))
	if err != nil {
		return load, lat, err
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	// The SQL index runs as in `dforge serve`: each relay answers once its
	// block is projected.
	ix := index.New(log, st, ch.Client())
	ixCtx, stopIndex := context.WithCancel(ctx)
	ixDone := make(chan error, 1)
	go func() { ixDone <- ix.Run(ixCtx) }()
	defer func() {
		stopIndex()
		<-ixDone
	}()
	dist := fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><div id="root"></div>`)}}
	h, err := dforgenode.NewServices(log, st, ch, ix).Handler(dforgenode.Site{Dist: dist, Version: "bench"})
	if err != nil {
		return load, lat, err
	}
	srv := httptest.NewServer(h) // 127.0.0.1, free port
	defer srv.Close()
	transport := &http.Transport{MaxIdleConns: o.httpConns + 4, MaxIdleConnsPerHost: o.httpConns + 4}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: time.Minute}
	url := srv.URL + "/api/v1/chain/txs"

	// Throughput: every client POSTs its transfers one after another; each
	// answer comes after the transfer's block. A 5xx is retried with the same
	// signed bytes (the API asks clients to try again) and counted.
	var (
		mu      sync.Mutex
		retries atomic.Int64
		wg      sync.WaitGroup
	)
	load.sent = o.txs
	start := time.Now()
	for _, txs := range w.httpLoad {
		wg.Go(func() {
			for _, s := range txs {
				t0 := time.Now()
				code, msg, n, err := postRetry(ctx, client, url, s.body, o.httpRetry)
				d := time.Since(t0)
				retries.Add(int64(n))
				mu.Lock()
				if err == nil && code == 0 {
					load.ok++
					load.latencies = append(load.latencies, d)
				} else {
					load.rejected++
					if load.firstErr == "" {
						load.firstErr = errText(err, msg)
					}
				}
				mu.Unlock()
				if ctx.Err() != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	load.elapsed = time.Since(start)
	load.retries = int(retries.Load())
	if err := ctx.Err(); err != nil {
		return load, lat, err
	}

	// Latency: one POST at a time on the now idle node.
	if err := sleep(ctx, o.idlePause); err != nil {
		return load, lat, err
	}
	lat.n = len(w.latBody)
	for _, body := range w.latBody {
		t0 := time.Now()
		code, msg, _, err := postRetry(ctx, client, url, body, 0)
		d := time.Since(t0)
		if err == nil && code == 0 {
			lat.ok++
			lat.latencies = append(lat.latencies, d)
		} else if lat.firstErr == "" {
			lat.firstErr = errText(err, msg)
		}
		if ctx.Err() != nil {
			return load, lat, ctx.Err()
		}
	}
	lat.logs = logs.drain() // before the deferred shutdown adds its own lines
	return load, lat, nil
}

// postRetry POSTs body until it gets a non-5xx answer or has retried for
// longer than patience, backing off 1, 2, 4, 8, 16 ms plus up to as much
// again of jitter between attempts. It returns the committed transaction's
// code, the error message of a failed answer, and how many 5xx answers it
// retried.
func postRetry(ctx context.Context, c *http.Client, url string, body []byte, patience time.Duration) (code uint32, msg string, retried int, err error) {
	start := time.Now()
	for attempt := 1; ; attempt++ {
		status, data, err := post(ctx, c, url, body)
		if err != nil {
			return 0, "", retried, err
		}
		if status == http.StatusOK {
			var res chain.Result
			if err := json.Unmarshal(data, &res); err != nil {
				return 0, "", retried, fmt.Errorf("decode answer %q: %w", data, err)
			}
			if res.Code != 0 {
				return res.Code, fmt.Sprintf("committed with code %d: %s", res.Code, res.Log), retried, nil
			}
			return 0, "", retried, nil
		}
		msg = fmt.Sprintf("HTTP %d %s", status, bytes.TrimSpace(data))
		if status < 500 || time.Since(start) >= patience {
			return 0, msg, retried, errors.New(msg)
		}
		retried++
		backoff := time.Millisecond << min(attempt-1, 4)
		if err := sleep(ctx, backoff+rand.N(backoff)); err != nil {
			return 0, msg, retried, err
		}
	}
}

func post(ctx context.Context, c *http.Client, url string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, data, err
}

// ---- step 2: straight to CometBFT ---------------------------------------------

// rpcTarget is one application on its own fresh single-validator node.
type rpcTarget struct {
	name   string
	cfg    node.Config
	newApp func() (abci.Application, func() error, error)
	loads  [][][][]byte // per round, per sender
	lat    [][]byte     // sent one at a time

	node     *node.Node
	closeApp func() error

	rounds []loadResult
	latRes latResult
}

func (t *rpcTarget) start(ctx context.Context) error {
	a, closeApp, err := t.newApp()
	if err != nil {
		return err
	}
	n, err := node.Start(ctx, t.cfg, a)
	if err != nil {
		return errors.Join(err, closeApp())
	}
	t.node, t.closeApp = n, closeApp
	return n.WaitSynced(ctx)
}

func (t *rpcTarget) stop() error {
	if t.node == nil {
		return nil
	}
	return errors.Join(t.node.Stop(), t.closeApp())
}

// median is the round with the median throughput.
func (t *rpcTarget) median() loadResult {
	if len(t.rounds) == 0 {
		return loadResult{}
	}
	rs := slices.Clone(t.rounds)
	sort.Slice(rs, func(i, j int) bool { return rs[i].tps() < rs[j].tps() })
	return rs[len(rs)/2]
}

// benchRPC starts every target's node, runs the throughput rounds
// alternating between targets (so a slow moment of the machine does not
// fall on one app only), then each target's one-at-a-time latency run. The
// nodes run side by side, but an idle node makes no blocks.
func benchRPC(ctx context.Context, o options, logs *logCounter, targets ...*rpcTarget) (err error) {
	defer func() {
		for _, t := range targets {
			err = errors.Join(err, t.stop())
		}
	}()
	for _, t := range targets {
		if err := t.start(ctx); err != nil {
			return fmt.Errorf("start %s node: %w", t.name, err)
		}
	}
	for r := range o.rounds {
		for _, t := range targets {
			if err := sleep(ctx, o.idlePause); err != nil {
				return err
			}
			load, err := rpcRound(ctx, o, t.node, t.loads[r])
			if err != nil {
				return fmt.Errorf("%s round %d: %w", t.name, r+1, err)
			}
			t.rounds = append(t.rounds, load)
		}
	}
	for _, t := range targets {
		if err := sleep(ctx, o.idlePause); err != nil {
			return err
		}
		if t.latRes, err = oneAtATime(ctx, t.node, t.lat); err != nil {
			return fmt.Errorf("%s latency: %w", t.name, err)
		}
	}
	targets[0].latRes.logs = logs.drain() // before the shutdown adds its own lines
	return nil
}

// rpcRound sends loadTxs with BroadcastTxSync (one goroutine per slice, each
// in order) and waits until the mempool is empty, i.e. every accepted
// transaction is in a committed block (CometBFT drops a transaction from the
// mempool when its block commits, or when a recheck after a block rejects
// it); then it counts the committed results.
func rpcRound(ctx context.Context, o options, n *node.Node, loadTxs [][][]byte) (load loadResult, err error) {
	c := n.Client()
	st, err := c.Status(ctx)
	if err != nil {
		return load, err
	}
	h0 := st.SyncInfo.LatestBlockHeight

	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for _, txs := range loadTxs {
		load.sent += len(txs)
	}
	start := time.Now()
	for _, txs := range loadTxs {
		wg.Go(func() {
			for _, raw := range txs {
				res, err := c.BroadcastTxSync(ctx, raw)
				if err == nil && res.Code == abci.CodeTypeOK {
					continue
				}
				mu.Lock()
				load.rejected++
				if load.firstErr == "" {
					if err == nil {
						err = fmt.Errorf("CheckTx code %d: %s", res.Code, res.Log)
					}
					load.firstErr = err.Error()
				}
				mu.Unlock()
				if ctx.Err() != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	mp := n.Comet().Mempool()
	waitCtx, cancel := context.WithTimeout(ctx, o.commitWait)
	defer cancel()
	for mp.Size() > 0 {
		if err := sleep(waitCtx, 500*time.Microsecond); err != nil {
			return load, fmt.Errorf("wait for %d transactions to commit: %w", mp.Size(), err)
		}
	}
	load.elapsed = time.Since(start)

	// Count what the blocks really hold, and with which result.
	st, err = c.Status(ctx)
	if err != nil {
		return load, err
	}
	for h := h0 + 1; h <= st.SyncInfo.LatestBlockHeight; h++ {
		br, err := c.BlockResults(ctx, &h)
		if err != nil {
			return load, fmt.Errorf("block results at %d: %w", h, err)
		}
		if len(br.TxResults) > 0 {
			load.blocks++
		}
		for _, r := range br.TxResults {
			if r.Code == abci.CodeTypeOK {
				load.ok++
			} else if load.firstErr == "" {
				load.firstErr = fmt.Sprintf("committed with code %d: %s", r.Code, r.Log)
			}
		}
	}
	return load, nil
}

// oneAtATime sends each tx with BroadcastTxCommit, waiting for its block
// before sending the next, and times each.
func oneAtATime(ctx context.Context, n *node.Node, txs [][]byte) (lat latResult, err error) {
	c := n.Client()
	lat.n = len(txs)
	for _, raw := range txs {
		t0 := time.Now()
		res, err := c.BroadcastTxCommit(ctx, raw)
		d := time.Since(t0)
		switch {
		case err != nil:
			if lat.firstErr == "" {
				lat.firstErr = err.Error()
			}
		case res.CheckTx.Code != abci.CodeTypeOK || res.TxResult.Code != abci.CodeTypeOK:
			if lat.firstErr == "" {
				lat.firstErr = fmt.Sprintf("codes check %d / deliver %d: %s%s", res.CheckTx.Code, res.TxResult.Code, res.CheckTx.Log, res.TxResult.Log)
			}
		default:
			lat.ok++
			lat.latencies = append(lat.latencies, d)
		}
		if ctx.Err() != nil {
			return lat, ctx.Err()
		}
	}
	return lat, nil
}

// ---- report ------------------------------------------------------------------

type report struct {
	opts   options
	txSize int

	httpLoad loadResult
	httpLat  latResult
	dforge   *rpcTarget
	kv       *rpcTarget
}

func (r report) print(out io.Writer) {
	o := r.opts
	dl, kl := r.dforge.median(), r.kv.median()
	fmt.Fprintf(out, "Throughput: %d signed transfers from %d accounts, %d bytes each (kvstore: same count and size, unique keys)\n", o.txs, o.accounts, r.txSize)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "path\tclients\tcommitted\ttime\ttx/s\tblocks\treq p50\treq p99\t")
	row := func(name string, clients int, l loadResult) {
		blocks, p50, p99 := "-", "-", "-"
		if l.blocks > 0 {
			blocks = strconv.Itoa(l.blocks)
		}
		if len(l.latencies) > 0 {
			p50, p99 = ms(percentile(l.latencies, 50)), ms(percentile(l.latencies, 99))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d/%d\t%s\t%.0f\t%s\t%s\t%s\t\n", name, clients, l.ok, l.sent,
			l.elapsed.Round(time.Millisecond), l.tps(), blocks, p50, p99)
	}
	row("dForge  POST /api/v1/chain/txs, each answered after its commit", o.httpConns, r.httpLoad)
	row(fmt.Sprintf("dForge  RPC BroadcastTxSync until all committed, median of %d", len(r.dforge.rounds)), o.rpcConns, dl)
	row(fmt.Sprintf("kvstore RPC BroadcastTxSync until all committed, median of %d", len(r.kv.rounds)), o.rpcConns, kl)
	tw.Flush()
	fmt.Fprintf(out, "  every round, tx/s:  dForge %s   kvstore %s\n", roundTPS(r.dforge.rounds), roundTPS(r.kv.rounds))

	fmt.Fprintf(out, "\nCommit latency of one transaction: %d sent one at a time to an idle node\n", o.latency)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "path\tcommitted\tp50\tp99\tmax\t")
	lrow := func(name string, l latResult) {
		p50, p99, mx := "-", "-", "-"
		if len(l.latencies) > 0 {
			p50, p99, mx = ms(percentile(l.latencies, 50)), ms(percentile(l.latencies, 99)), ms(slices.Max(l.latencies))
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\t%s\t\n", name, l.ok, l.n, p50, p99, mx)
	}
	lrow("dForge  POST /api/v1/chain/txs", r.httpLat)
	lrow("dForge  RPC BroadcastTxCommit", r.dforge.latRes)
	lrow("kvstore RPC BroadcastTxCommit", r.kv.latRes)
	tw.Flush()

	fmt.Fprintln(out, "\nAgainst the targets (figures only; nothing is asserted)")
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  dForge RPC tx/s / kvstore RPC tx/s\t%s\t(target >= 0.50)\n", ratio(dl.tps(), kl.tps()))
	fmt.Fprintf(tw, "  dForge HTTP tx/s / kvstore RPC tx/s\t%s\t\n", ratio(r.httpLoad.tps(), kl.tps()))
	fmt.Fprintf(tw, "  dForge one-tx commit p50, RPC\t%s\t(target < 20 ms)\n", latP50(r.dforge.latRes))
	fmt.Fprintf(tw, "  dForge one-tx commit p50, HTTP\t%s\t(target < 20 ms)\n", latP50(r.httpLat))
	fmt.Fprintf(tw, "  kvstore one-tx commit p50, RPC\t%s\t\n", latP50(r.kv.latRes))
	tw.Flush()

	var notes []string
	if r.httpLoad.retries > 0 {
		notes = append(notes, fmt.Sprintf("POST /api/v1/chain/txs answered 5xx %d times under load; each was retried with the same bytes after a 1-32 ms back-off, and the request latencies above include the retries", r.httpLoad.retries))
	}
	type failure struct{ name, err string }
	failures := []failure{{"dForge HTTP load", r.httpLoad.firstErr}, {"dForge HTTP latency", r.httpLat.firstErr},
		{"dForge RPC latency", r.dforge.latRes.firstErr}, {"kvstore RPC latency", r.kv.latRes.firstErr}}
	for i := range r.dforge.rounds {
		failures = append(failures, failure{fmt.Sprintf("dForge RPC round %d", i+1), r.dforge.rounds[i].firstErr})
	}
	for i := range r.kv.rounds {
		failures = append(failures, failure{fmt.Sprintf("kvstore RPC round %d", i+1), r.kv.rounds[i].firstErr})
	}
	for _, f := range failures {
		if f.err != "" {
			notes = append(notes, fmt.Sprintf("%s: first failure: %s", f.name, f.err))
		}
	}
	for _, f := range []struct {
		name  string
		lines []logLine
	}{{"step 1 (HTTP)", r.httpLat.logs}, {"step 2 (RPC)", r.dforge.latRes.logs}} {
		for _, l := range f.lines {
			notes = append(notes, fmt.Sprintf("%s logged %dx %s: %s", f.name, l.count, l.level, l.text))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(out, "\nNotes")
		for _, n := range notes {
			fmt.Fprintln(out, "  -", n)
		}
	}
}

func roundTPS(rs []loadResult) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%.0f", r.tps())
	}
	return strings.Join(parts, ", ")
}

// loadAvg is the host's load average when it can be read: figures taken on a
// busy machine are not comparable with those of an idle one.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if err != nil || len(f) < 3 {
		return ""
	}
	return ", load average " + strings.Join(f[:3], " ")
}

// percentile is the nearest-rank percentile of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func latP50(l latResult) string {
	if len(l.latencies) == 0 {
		return "-"
	}
	return ms(percentile(l.latencies, 50))
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func errText(err error, msg string) string {
	if msg != "" {
		return msg
	}
	if err != nil {
		return err.Error()
	}
	return "unknown"
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ---- logs ----------------------------------------------------------------------

// logCounter is the slog handler of the node, CometBFT and the HTTP API: it
// keeps warnings and errors, counted by message and error text, so a failure
// under load shows up once in the report instead of a thousand times.
type logCounter struct {
	state *logState
	attrs []slog.Attr
}

type logState struct {
	mu     sync.Mutex
	counts map[string]*logLine
	order  []string
}

type logLine struct {
	level slog.Level
	text  string
	count int
}

func newLogCounter() *logCounter {
	return &logCounter{state: &logState{counts: map[string]*logLine{}}}
}

func (h *logCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *logCounter) Handle(_ context.Context, r slog.Record) error {
	text := r.Message
	add := func(a slog.Attr) bool {
		if a.Key == "err" || a.Key == "error" {
			text += " (" + a.Key + ": " + a.Value.String() + ")"
		}
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	key := r.Level.String() + " " + text
	s := h.state
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.counts[key]; ok {
		l.count++
		return nil
	}
	s.counts[key] = &logLine{level: r.Level, text: text, count: 1}
	s.order = append(s.order, key)
	return nil
}

func (h *logCounter) WithAttrs(as []slog.Attr) slog.Handler {
	return &logCounter{state: h.state, attrs: append(slices.Clone(h.attrs), as...)}
}

func (h *logCounter) WithGroup(string) slog.Handler { return h }

// drain returns the lines counted since the last drain, at most 5, the most
// frequent first.
func (h *logCounter) drain() []logLine {
	s := h.state
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := make([]logLine, 0, len(s.order))
	for _, k := range s.order {
		lines = append(lines, *s.counts[k])
	}
	s.counts, s.order = map[string]*logLine{}, nil
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].count > lines[j].count })
	return lines[:min(len(lines), 5)]
}
