// Command bounty measures what paying a bounty adds to the block of the
// merge that pays it (make bench-bounty):
//
//  1. An operator, a repository, a pull request author with write access
//     and up to -funders funded accounts, driven straight through the ABCI
//     application (FinalizeBlock + Commit) on an on-disk IAVL store, as the
//     node runs it, without networking.
//  2. For each number of funders (0: no bounty, then 1, 10, 100 by
//     default), -runs times: an issue, that many BountyFund transactions,
//     a pull request that says "fixes #N", then the block of its merge,
//     timed: FinalizeBlock (the apply) and Commit apart.
//
// It prints the median of each; it asserts nothing.
package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

type options struct {
	runs    int
	funders string
}

func main() {
	var o options
	flag.IntVar(&o.runs, "runs", 31, "merges timed per number of funders (median reported)")
	flag.StringVar(&o.funders, "funders", "0,1,10,100", "numbers of funders to compare, comma-separated (0 is a merge with no bounty)")
	flag.Parse()
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "bench-bounty:", err)
		os.Exit(1)
	}
}

type account struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

func newAccount() *account {
	k, err := crypto.GenerateKey()
	if err != nil {
		panic(err)
	}
	return &account{key: k, addr: crypto.PubkeyToAddress(k.PublicKey)}
}

// bench drives the app block by block.
type bench struct {
	app     *app.App
	chainID uint64
	height  int64
	op      *account
	owner   common.Address
	author  common.Address
	funders []*account
}

func run(ctx context.Context, o options) error {
	var counts []int
	for _, s := range strings.Split(o.funders, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			return fmt.Errorf("-funders: %q is not a number of funders", s)
		}
		counts = append(counts, n)
	}
	dir, err := os.MkdirTemp("", "dforge-bench-bounty-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Printf("bench-bounty: %d merges per case, funders %v, %d CPUs, %s\n", o.runs, counts, runtime.NumCPU(), runtime.Version())
	b, err := setup(ctx, dir, slices.Max(counts))
	if err != nil {
		return err
	}
	fmt.Printf("\nresults (median of %d merges each)\n", o.runs)
	var baseline time.Duration
	for _, n := range counts {
		apply, commit, err := b.measure(ctx, n, o.runs)
		if err != nil {
			return err
		}
		if n == 0 {
			baseline = apply
		}
		ratio := ""
		if baseline > 0 {
			ratio = fmt.Sprintf(", %.2fx the merge without a bounty", float64(apply)/float64(baseline))
		}
		label := "no bounty"
		if n > 0 {
			label = fmt.Sprintf("%d funder(s)", n)
		}
		fmt.Printf("  merge block, %-12s apply (FinalizeBlock) %s, commit %s%s\n", label+":", apply.Round(time.Microsecond), commit.Round(time.Microsecond), ratio)
	}
	return nil
}

// setup writes a genesis funding the funders, opens the app on disk and
// creates the repository with the author as a writer.
func setup(ctx context.Context, dir string, funders int) (*bench, error) {
	b := &bench{op: newAccount(), owner: newAccount().addr, author: newAccount().addr}
	g := app.TreasuryGenesis(b.op.addr)
	for range funders {
		f := newAccount()
		b.funders = append(b.funders, f)
		g.Allocations = append(g.Allocations, ledger.Allocation{Address: f.addr, Amount: 1_000_000_000})
	}
	b.chainID = g.Params.ChainID
	raw, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	st, err := state.Open(filepath.Join(dir, "app"))
	if err != nil {
		return nil, err
	}
	if b.app, err = app.New(st); err != nil {
		return nil, err
	}
	if _, err := b.app.InitChain(ctx, &abci.InitChainRequest{AppStateBytes: raw}); err != nil {
		return nil, err
	}
	if _, err := b.app.Commit(ctx, nil); err != nil {
		return nil, err
	}
	if _, _, err := b.block(ctx, b.forge(b.owner, "repo.create", `{"name":"lib"}`)); err != nil {
		return nil, err
	}
	_, _, err = b.block(ctx, b.forge(b.owner, "repo.collaborator.set", fmt.Sprintf(`{"repo":1,"user":%q,"permission":"write"}`, b.author.Hex())))
	return b, err
}

// measure times runs merges that each pay a bounty of funders shares.
func (b *bench) measure(ctx context.Context, funders, runs int) (apply, commit time.Duration, err error) {
	var applies, commits []time.Duration
	for range runs {
		issue, err := b.number(ctx, b.forge(b.author, "issue.create", `{"repo":1,"title":"It breaks"}`))
		if err != nil {
			return 0, 0, err
		}
		var funds [][]byte
		for _, f := range b.funders[:funders] {
			funds = append(funds, b.sign(f, tx.KindBountyFund, map[string]any{"repo": "1", "issue": strconv.FormatUint(issue, 10), "amount": "1000", "expiry": "1000000000"}))
		}
		if _, _, err := b.block(ctx, funds...); err != nil {
			return 0, 0, err
		}
		pr, err := b.number(ctx, b.forge(b.author, "pr.create", fmt.Sprintf(`{"repo":1,"title":"Fix","body":"Fixes #%d","headBranch":"fix","headSha":"%040d","baseSha":"%040d"}`, issue, 1, 2)))
		if err != nil {
			return 0, 0, err
		}
		a, c, err := b.block(ctx, b.forge(b.owner, "pr.merge", fmt.Sprintf(`{"repo":1,"number":%d,"style":"merge","mergeSha":"%040d"}`, pr, pr)))
		if err != nil {
			return 0, 0, err
		}
		applies, commits = append(applies, a), append(commits, c)
	}
	return median(applies), median(commits), nil
}

func (b *bench) forge(actor common.Address, action, payload string) []byte {
	return b.sign(b.op, tx.KindForge, map[string]any{"actor": actor.Hex(), "action": action, "payload": payload})
}

func (b *bench) sign(from *account, kind tx.Kind, msg map[string]any) []byte {
	msg["from"], msg["nonce"] = from.addr.Hex(), strconv.FormatUint(from.nonce, 10)
	from.nonce++
	env, err := tx.Sign(from.key, kind, msg, b.chainID)
	if err != nil {
		panic(err)
	}
	raw, err := tx.Encode(env)
	if err != nil {
		panic(err)
	}
	return raw
}

// number applies one forge transaction and reads the number of the issue
// or pull request it made.
func (b *bench) number(ctx context.Context, raw []byte) (uint64, error) {
	res, err := b.finalize(ctx, raw)
	if err != nil {
		return 0, err
	}
	var ch struct {
		Issue struct{ Number uint64 } `json:"issue"`
	}
	for _, at := range res.TxResults[0].Events[0].Attributes {
		if at.Key == "data" {
			err = json.Unmarshal([]byte(at.Value), &ch)
		}
	}
	return ch.Issue.Number, err
}

func (b *bench) finalize(ctx context.Context, txs ...[]byte) (*abci.FinalizeBlockResponse, error) {
	_, _, res, err := b.timed(ctx, txs)
	return res, err
}

func (b *bench) block(ctx context.Context, txs ...[]byte) (apply, commit time.Duration, err error) {
	apply, commit, _, err = b.timed(ctx, txs)
	return apply, commit, err
}

// timed finalizes and commits one block, timing each; a refused
// transaction is an error (the bench would measure the wrong thing).
func (b *bench) timed(ctx context.Context, txs [][]byte) (apply, commit time.Duration, res *abci.FinalizeBlockResponse, err error) {
	b.height++
	t0 := time.Now()
	res, err = b.app.FinalizeBlock(ctx, &abci.FinalizeBlockRequest{Height: b.height, Txs: txs, Time: time.Unix(b.height, 0)})
	if err != nil {
		return 0, 0, nil, err
	}
	apply = time.Since(t0)
	t0 = time.Now()
	if _, err := b.app.Commit(ctx, nil); err != nil {
		return 0, 0, nil, err
	}
	commit = time.Since(t0)
	for i, r := range res.TxResults {
		if r.Code != 0 {
			return 0, 0, nil, fmt.Errorf("block %d tx %d: code %d %s", b.height, i, r.Code, r.Log)
		}
	}
	if len(txs) == 1 && strings.Contains(string(txs[0]), "pr.merge") {
		if err := checkPaid(res.TxResults[0].Events); err != nil {
			return 0, 0, nil, err
		}
	}
	return apply, commit, res, nil
}

// checkPaid makes sure a merge paid at most one bounty, so each case
// measures what it says.
func checkPaid(events []abci.Event) error {
	paid := 0
	for _, ev := range events {
		if ev.Type == bounty.EventType {
			paid++
		}
	}
	if paid > 1 {
		return fmt.Errorf("a merge paid %d bounties", paid)
	}
	return nil
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
