package node

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cometbft/cometbft/abci/example/kvstore"
	"github.com/cometbft/cometbft/rpc/client/local"
	"github.com/cometbft/cometbft/types"

	"github.com/dforge/dforge/internal/longtest"
)

// testLogger keeps CometBFT quiet unless the test runs with -v, and lets
// DFORGE_TEST_CHAIN_LOG=debug|info|warn|error choose the level to see.
func testLogger(cfg *Config) {
	out := io.Discard
	if testing.Verbose() {
		out = os.Stderr
	}
	cfg.Logger = slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var level slog.Level
	if err := level.UnmarshalText([]byte(os.Getenv("DFORGE_TEST_CHAIN_LOG"))); err == nil {
		cfg.LogLevel = level
	}
}

func startNode(t *testing.T, ctx context.Context, cfg Config) *Node {
	t.Helper()
	longtest.Mark(t, "starts a CometBFT node")
	testLogger(&cfg)
	n, err := Start(ctx, cfg, kvstore.NewInMemoryApplication())
	if err != nil {
		t.Fatalf("start %s: %v", cfg.Home, err)
	}
	t.Cleanup(func() { _ = n.Stop() })
	return n
}

// commit broadcasts tx and waits until it is in a block.
func commit(t *testing.T, ctx context.Context, c *local.Local, tx string) int64 {
	t.Helper()
	res, err := c.BroadcastTxCommit(ctx, []byte(tx))
	if err != nil {
		t.Fatalf("broadcast %q: %v", tx, err)
	}
	if res.CheckTx.Code != 0 || res.TxResult.Code != 0 {
		t.Fatalf("tx %q rejected: check %d %q, exec %d %q", tx,
			res.CheckTx.Code, res.CheckTx.Log, res.TxResult.Code, res.TxResult.Log)
	}
	return res.Height
}

func query(t *testing.T, ctx context.Context, c *local.Local, key string) string {
	t.Helper()
	res, err := c.ABCIQuery(ctx, "", []byte(key))
	if err != nil {
		t.Fatalf("query %q: %v", key, err)
	}
	return string(res.Response.Value)
}

func height(t *testing.T, ctx context.Context, c *local.Local) int64 {
	t.Helper()
	st, err := c.Status(ctx)
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	return st.SyncInfo.LatestBlockHeight
}

func TestSingleValidatorCommitIdleRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg := Config{
		Home:    filepath.Join(t.TempDir(), "chain"),
		ChainID: "dforge-test",
		RPCAddr: "tcp://127.0.0.1:0",
		P2PAddr: "tcp://127.0.0.1:0",
	}
	n := startNode(t, ctx, cfg)
	start := time.Now()
	h := commit(t, ctx, n.Client(), "k=v")
	t.Logf("first commit at height %d in %v", h, time.Since(start))
	if got := query(t, ctx, n.Client(), "k"); got != "v" {
		t.Fatalf("query k = %q, want v", got)
	}
	assertIdle(t, ctx, n.Client(), h)
	addr := validatorAddress(t, ctx, n.Client())
	stopTwice(t, n)

	n = startNode(t, ctx, cfg)
	if got := validatorAddress(t, ctx, n.Client()); !bytes.Equal(got, addr) {
		t.Fatalf("validator changed across restart: %X -> %X", addr, got)
	}
	if got := query(t, ctx, n.Client(), "k"); got != "v" {
		t.Fatalf("after restart (blocks replayed into a fresh app) query k = %q, want v", got)
	}
	if h2 := commit(t, ctx, n.Client(), "k2=v2"); h2 <= h {
		t.Fatalf("commit after restart at height %d, want > %d", h2, h)
	}
	if got := query(t, ctx, n.Client(), "k2"); got != "v2" {
		t.Fatalf("query k2 = %q, want v2", got)
	}
	assertSignStateKept(t, cfg.Home)
	stopTwice(t, n)
}

// idleWindow is how long assertIdle watches for a block that must not
// come. With the node's timeouts (timeout_commit 10ms, a proposal within
// 400ms) an empty block would be made well within it. Watching for
// something that must not happen is the one wait that cannot end on a
// signal.
const idleWindow = time.Second

// assertIdle checks that no block is made without transactions. The block
// with transactions (at height h) is followed by one more, which commits
// its app hash: it waits for that block's event first, then watches for
// another one.
func assertIdle(t *testing.T, ctx context.Context, c *local.Local, h int64) {
	t.Helper()
	const subscriber = "assert-idle"
	// Subscribe before reading the height, so no block slips between.
	blocks, err := c.Subscribe(ctx, subscriber, types.EventQueryNewBlock.String(), 8)
	if err != nil {
		t.Fatalf("subscribe to new blocks: %v", err)
	}
	defer func() { _ = c.UnsubscribeAll(context.Background(), subscriber) }()
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for height(t, ctx, c) < h+1 {
		select {
		case <-blocks:
		case <-wait.Done():
			t.Fatalf("no block %d, which commits the app hash of block %d", h+1, h)
		}
	}
	idle := time.NewTimer(idleWindow)
	defer idle.Stop()
	for {
		select {
		case ev := <-blocks:
			b, ok := ev.Data.(types.EventDataNewBlock)
			if !ok || b.Block.Height <= h+1 {
				continue // an event of the blocks awaited above
			}
			t.Fatalf("empty block %d while idle after height %d", b.Block.Height, h+1)
		case <-idle.C:
			if after := height(t, ctx, c); after != h+1 {
				t.Fatalf("empty blocks while idle: height %d -> %d", h+1, after)
			}
			return
		}
	}
}

func validatorAddress(t *testing.T, ctx context.Context, c *local.Local) []byte {
	t.Helper()
	st, err := c.Status(ctx)
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	return st.ValidatorInfo.Address
}

func stopTwice(t *testing.T, n *Node) {
	t.Helper()
	if err := n.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if err := n.Stop(); err != nil {
		t.Fatalf("second stop: %v", err)
	}
}

// assertSignStateKept checks the validator's last signed height survived the
// restart instead of starting over from zero.
func assertSignStateKept(t *testing.T, home string) {
	t.Helper()
	pv, err := loadPV(filepath.Join(home, "config", "priv_validator_key.json"),
		filepath.Join(home, "data", "priv_validator_state.json"))
	if err != nil {
		t.Fatalf("load validator: %v", err)
	}
	if pv.LastSignState.Height < 3 {
		t.Fatalf("last signed height %d, want the height reached before and after restart", pv.LastSignState.Height)
	}
}

func TestTestnetFourValidatorsCatchUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	if err := Testnet(dir, 4, "dforge-testnet", nil); err != nil {
		t.Fatal(err)
	}
	nodes := make([]*Node, 4)
	for i := range nodes {
		nodes[i] = startNode(t, ctx, Config{Home: TestnetHome(dir, i)})
	}
	start := time.Now()
	// A validator still syncing blocks drops gossiped transactions, and with
	// create_empty_blocks off a transaction the proposer never saw waits for
	// the next one. So broadcast only once every node is in consensus.
	for _, n := range nodes {
		waitSynced(t, ctx, n)
	}
	commit(t, ctx, nodes[0].Client(), "a=1")
	t.Logf("first commit with 4 validators in %v", time.Since(start))
	waitInSync(t, ctx, nodes)

	if err := nodes[3].Stop(); err != nil {
		t.Fatalf("stop node3: %v", err)
	}
	for i, tx := range []string{"b=2", "c=3", "d=4"} {
		commit(t, ctx, nodes[i%3].Client(), tx)
	}
	nodes[3] = startNode(t, ctx, Config{Home: TestnetHome(dir, 3)})
	start = time.Now()
	waitSynced(t, ctx, nodes[3])
	waitInSync(t, ctx, nodes)
	t.Logf("node3 caught up in %v", time.Since(start))
	if got := query(t, ctx, nodes[3].Client(), "c"); got != "3" {
		t.Fatalf("node3 query c = %q, want 3", got)
	}
}

func waitSynced(t *testing.T, ctx context.Context, n *Node) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := n.WaitSynced(ctx); err != nil {
		t.Fatal(err)
	}
}

// waitInSync waits until every node's application reports the same last
// height and app hash, and fails the test if that takes too long.
func waitInSync(t *testing.T, ctx context.Context, nodes []*Node) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		state, same := appStates(ctx, nodes)
		if same {
			t.Logf("in sync: %s", state[0])
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("nodes not in sync: %v", state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// appStates returns "height/apphash" per node, and whether all are equal.
func appStates(ctx context.Context, nodes []*Node) ([]string, bool) {
	states := make([]string, len(nodes))
	for i, n := range nodes {
		info, err := n.Client().ABCIInfo(ctx)
		if err != nil {
			states[i] = err.Error()
			continue
		}
		states[i] = fmt.Sprintf("%d/%X", info.Response.LastBlockHeight, info.Response.LastBlockAppHash)
	}
	for _, s := range states[1:] {
		if s != states[0] {
			return states, false
		}
	}
	return states, true
}

// TestStartFailureReleasesHome checks that a start that fails half-way (here:
// the RPC port is taken) closes the databases, so the next start works.
func TestStartFailureReleasesHome(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	cfg := Config{Home: t.TempDir(), ChainID: "dforge-test", P2PAddr: "tcp://127.0.0.1:0"}
	testLogger(&cfg)
	cfg.RPCAddr = "tcp://" + busy.Addr().String()
	if n, err := Start(ctx, cfg, kvstore.NewInMemoryApplication()); err == nil {
		_ = n.Stop()
		t.Fatal("started with the RPC port taken")
	}
	cfg.RPCAddr = "tcp://127.0.0.1:0"
	n := startNode(t, ctx, cfg)
	commit(t, ctx, n.Client(), "k=v")
}
