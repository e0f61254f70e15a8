// Command auth is the benchmark of the own-keys rules (`make bench-auth`):
// what checking each forge action's authority costs, against the operator
// path chains used before the own-keys upgrade, in the same run.
//
//  1. State machine throughput: the same forge actions (issue.create by
//     many users) in blocks of 500, applied by a fresh app under the old
//     rules (a genesis operator relays) and under own-keys (the relayer
//     holds each user's delegation), in alternating rounds; the ratio of
//     the medians.
//  2. One transaction's commit latency on a real single-validator CometBFT
//     node, one delegated action at a time, against the operator path.
//  3. The audit (`dforge verify`) of a chain of 100,000 forge actions.
//  4. Issue creation through the REST API by this checkout's binary and
//     by the code before own-keys (-old-bin), alternating, on fresh nodes.
//
// It prints figures only and never fails on timing. Figures 1-3 run in
// this process, figure 4 starts the binaries; the nodes listen on
// 127.0.0.1 in temporary directories.
package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

func main() {
	actions := flag.Int("actions", 20_000, "forge actions per throughput round")
	rounds := flag.Int("rounds", 3, "throughput rounds per rule set")
	commits := flag.Int("commits", 200, "one-at-a-time commits per rule set")
	audit := flag.Int("audit", 100_000, "forge actions in the audited chain")
	bin := flag.String("bin", "bin/dforge", "this checkout's dforge binary, for the API figure")
	oldBin := flag.String("old-bin", "", "the yardstick's dforge binary (the code before own-keys), for the API figure")
	apiIssues := flag.Int("api-issues", 1000, "issues per API round")
	apiWorkers := flag.Int("api-workers", 32, "concurrent API clients")
	apiRounds := flag.Int("api-rounds", 3, "API rounds per binary")
	flag.Parse()
	err := run(*actions, *rounds, *commits, *audit)
	if err == nil {
		err = benchAPI(context.Background(), *bin, *oldBin, *apiIssues, *apiWorkers, *apiRounds)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-auth:", err)
		os.Exit(1)
	}
}

const blockSize = 500

// world is a relayer and users, with a genesis of either rule set.
type world struct {
	relayer *ecdsa.PrivateKey
	users   []common.Address
}

func newWorld(users int) world {
	w := world{relayer: mustKey()}
	for range users {
		w.users = append(w.users, crypto.PubkeyToAddress(mustKey().PublicKey))
	}
	return w
}

// genesis is the chain of the old rules (ownKeys false: the relayer is a
// genesis operator) or of own-keys (every user delegated to the relayer).
func (w world) genesis(ownKeys bool) app.Genesis {
	relayer := crypto.PubkeyToAddress(w.relayer.PublicKey)
	g := app.TreasuryGenesis(relayer)
	g.Upgrades = nil
	if ownKeys {
		g.Upgrades = upgrade.All()
		for _, u := range w.users {
			g.Delegations = append(g.Delegations, delegation.Delegation{Account: u, Delegate: relayer, Scopes: delegation.Scopes, Expiry: delegation.MaxBlocks})
		}
	}
	return g
}

// actions signs n forge actions by the relayer: a repository per user,
// then issues, spread over the users.
func (w world) actions(n int) ([][]byte, error) {
	relayer := crypto.PubkeyToAddress(w.relayer.PublicKey)
	out := make([][]byte, 0, n)
	for i := range n {
		u := w.users[i%len(w.users)]
		action, payload := "issue.create", `{"repo":`+strconv.Itoa(i%len(w.users)+1)+`,"title":"issue `+strconv.Itoa(i)+`"}`
		if i < len(w.users) {
			action, payload = "repo.create", `{"name":"r`+strconv.Itoa(i)+`"}`
		}
		env, err := tx.Sign(w.relayer, tx.KindForge, map[string]any{"from": relayer.Hex(), "actor": u.Hex(), "action": action, "payload": payload, "nonce": uint64(i)}, app.DefaultParams().ChainID)
		if err != nil {
			return nil, err
		}
		raw, err := tx.Encode(env)
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}

func run(actions, rounds, commits, audited int) error {
	ctx := context.Background()
	// Blocks hold 500 actions; an account acts in at most
	// app.MaxActionsPerAccount a block, so there are enough users.
	w := newWorld(blockSize/app.MaxActionsPerAccount*2 + 16)
	txs, err := w.actions(actions)
	if err != nil {
		return err
	}
	fmt.Printf("1. state machine: %d forge actions in blocks of %d, %d rounds each, alternating\n", actions, blockSize, rounds)
	var old, own []float64
	for range rounds {
		for _, ownKeys := range []bool{false, true} {
			rate, err := throughput(ctx, w.genesis(ownKeys), txs)
			if err != nil {
				return err
			}
			if ownKeys {
				own = append(own, rate)
			} else {
				old = append(old, rate)
			}
		}
	}
	fmt.Printf("   operator path (before own-keys): median %.0f actions/s %v\n", median(old), rounded(old))
	fmt.Printf("   own-keys (delegation checks):    median %.0f actions/s %v\n", median(own), rounded(own))
	fmt.Printf("   ratio own-keys / operator path:  %.2f (target >= 0.9)\n", median(own)/median(old))

	fmt.Printf("2. commit latency of one forge action at a time, real CometBFT node, %d each\n", commits)
	for _, ownKeys := range []bool{false, true} {
		lat, err := commitLatency(ctx, w, ownKeys, commits)
		if err != nil {
			return err
		}
		name := "operator path"
		if ownKeys {
			name = "delegated    "
		}
		fmt.Printf("   %s p50 %v p99 %v\n", name, pct(lat, 50), pct(lat, 99))
	}

	fmt.Printf("3. audit (dforge verify) of %d forge actions\n", audited)
	return benchAudit(ctx, audited)
}

// throughput applies txs in blocks on a fresh in-memory app and returns
// actions per second.
func throughput(ctx context.Context, g app.Genesis, txs [][]byte) (float64, error) {
	a, err := newApp(ctx, g)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	height := int64(0)
	for i := 0; i < len(txs); i += blockSize {
		height++
		res, err := a.FinalizeBlock(ctx, &abci.FinalizeBlockRequest{Height: height, Txs: txs[i:min(i+blockSize, len(txs))]})
		if err != nil {
			return 0, err
		}
		for j, r := range res.TxResults {
			if r.Code != 0 {
				return 0, fmt.Errorf("block %d tx %d: %d %s", height, j, r.Code, r.Log)
			}
		}
		if _, err := a.Commit(ctx, &abci.CommitRequest{}); err != nil {
			return 0, err
		}
	}
	return float64(len(txs)) / time.Since(start).Seconds(), nil
}

func newApp(ctx context.Context, g app.Genesis) (*app.App, error) {
	a, err := app.New(state.OpenMemory())
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(g)
	_, err = a.InitChain(ctx, &abci.InitChainRequest{AppStateBytes: raw})
	return a, err
}

// commitLatency submits n forge actions one at a time to a real node and
// returns each one's time to commit.
func commitLatency(ctx context.Context, w world, ownKeys bool, n int) ([]time.Duration, error) {
	dir, err := os.MkdirTemp("", "bench-auth-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ch, err := chain.Open(ctx, chain.Config{Dir: filepath.Join(dir, "chain"), RPCAddr: "tcp://127.0.0.1:0", P2PAddr: "tcp://127.0.0.1:0",
		Genesis: w.genesis(ownKeys), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return nil, err
	}
	defer ch.Close()
	txs, err := w.actions(n)
	if err != nil {
		return nil, err
	}
	out := make([]time.Duration, 0, n)
	for _, raw := range txs {
		env, err := tx.Decode(raw)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		res, err := ch.Submit(ctx, env)
		if err != nil {
			return nil, err
		}
		if res.Code != 0 {
			return nil, fmt.Errorf("commit: %d %s", res.Code, res.Log)
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// benchAudit builds a chain of n forge actions under own-keys and times
// app.Audit over it.
func benchAudit(ctx context.Context, n int) error {
	w := newWorld(blockSize/app.MaxActionsPerAccount*2 + 16)
	g := w.genesis(true)
	raw, _ := json.Marshal(g)
	txs, err := w.actions(n)
	if err != nil {
		return err
	}
	a, err := newApp(ctx, g)
	if err != nil {
		return err
	}
	var blocks []app.RecordedBlock
	for i := 0; i < len(txs); i += blockSize {
		b := app.RecordedBlock{Height: int64(len(blocks) + 1), Txs: txs[i:min(i+blockSize, len(txs))]}
		res, err := a.FinalizeBlock(ctx, &abci.FinalizeBlockRequest{Height: b.Height, Txs: b.Txs})
		if err != nil {
			return err
		}
		for _, r := range res.TxResults {
			b.Codes = append(b.Codes, r.Code)
		}
		if _, err := a.Commit(ctx, &abci.CommitRequest{}); err != nil {
			return err
		}
		blocks = append(blocks, b)
	}
	next := 0
	start := time.Now()
	sum, err := app.Audit(ctx, raw, nil, func() (app.RecordedBlock, bool, error) {
		if next == len(blocks) {
			return app.RecordedBlock{}, false, nil
		}
		next++
		return blocks[next-1], true, nil
	}, func(app.AuditFailure) {})
	if err != nil {
		return err
	}
	fmt.Printf("   %d blocks, %d forge actions, %d failed, in %v (target < 30 s)\n", sum.Blocks, sum.ForgeActions, sum.Failures, time.Since(start).Round(time.Millisecond))
	return nil
}

func mustKey() *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		panic(err)
	}
	return k
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func rounded(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)].Round(100 * time.Microsecond)
}
