// Command gov measures what a large vote costs the chain (make bench-gov):
//
//  1. N accounts (default 100,000) stake, one proposes, all N vote, each
//     with a signed transaction, driven straight through the ABCI
//     application (FinalizeBlock + Commit) on an on-disk IAVL store, as
//     the node runs it, without networking.
//  2. The block whose start ends the vote (the tally, the deposit's
//     return and the execution of a parameter change) is timed against
//     empty blocks of the same chain.
//
// It prints figures; it asserts nothing.
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
	"sync"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

type options struct {
	voters   int
	perBlock int
	empties  int
}

func main() {
	var o options
	flag.IntVar(&o.voters, "voters", 100_000, "accounts that stake and vote")
	flag.IntVar(&o.perBlock, "per-block", 5_000, "transactions per block while staking and voting")
	flag.IntVar(&o.empties, "empty", 15, "empty blocks timed for the baseline (median reported)")
	flag.Parse()
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "bench-gov:", err)
		os.Exit(1)
	}
}

type account struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func run(ctx context.Context, o options) error {
	dir, err := os.MkdirTemp("", "dforge-bench-gov-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Printf("bench-gov: %d voters, %d transactions a block, %d CPUs, %s\n", o.voters, o.perBlock, runtime.NumCPU(), runtime.Version())

	// 1. Keys, a genesis that funds them, and the app on disk.
	t0 := time.Now()
	accounts := keys(o.voters + 1)
	proposer := accounts[o.voters]
	p := app.DefaultParams()
	votingBlocks := uint64((o.voters+o.perBlock-1)/o.perBlock + 2*o.empties + 2)
	p.Gov.VotingPeriodBlocks, p.Gov.TimelockBlocks = votingBlocks, 0
	g := app.Genesis{Params: p}
	for _, a := range accounts {
		g.Allocations = append(g.Allocations, ledger.Allocation{Address: a.addr, Amount: 20_000_000_000})
	}
	raw, err := json.Marshal(g)
	if err != nil {
		return err
	}
	st, err := state.Open(filepath.Join(dir, "app"))
	if err != nil {
		return err
	}
	a, err := app.New(st)
	if err != nil {
		return err
	}
	if _, err := a.InitChain(ctx, &abci.InitChainRequest{AppStateBytes: raw, Validators: nil}); err != nil {
		return err
	}
	if _, err := a.Commit(ctx, nil); err != nil {
		return err
	}
	fmt.Printf("  %d keys and the genesis in %s\n", len(accounts), time.Since(t0).Round(time.Millisecond))

	// 2. Everyone stakes (the proposer most), then the proposal.
	c := &chain{app: a, height: 1}
	stakes := sign(accounts, p.ChainID, func(i int, acc account) (tx.Kind, map[string]any) {
		amount := "1000000000"
		if acc == proposer {
			amount = "15000000000"
		}
		return tx.KindStake, map[string]any{"from": acc.addr.Hex(), "amount": amount, "nonce": "0"}
	})
	t0 = time.Now()
	if err := c.blocks(ctx, stakes, o.perBlock); err != nil {
		return err
	}
	fmt.Printf("  %d stakes applied in %s\n", len(stakes), time.Since(t0).Round(time.Millisecond))
	propose := sign([]account{proposer}, p.ChainID, func(int, account) (tx.Kind, map[string]any) {
		return tx.KindPropose, map[string]any{"from": proposer.addr.Hex(), "proposalType": "param", "title": "Raise the quorum",
			"description": "", "payload": `{"name":"quorumBps","value":"4000"}`, "deposit": strconv.FormatUint(p.Gov.ProposalDeposit, 10), "nonce": "1"}
	})
	t0 = time.Now()
	proposedAt := c.height
	if err := c.blocks(ctx, propose, 1); err != nil {
		return err
	}
	fmt.Printf("  the proposal (snapshot of %d stakers' power) in one block of %s\n", len(accounts), time.Since(t0).Round(time.Millisecond))

	// 3. Every account votes.
	voters := accounts[:o.voters]
	votes := sign(voters, p.ChainID, func(i int, acc account) (tx.Kind, map[string]any) {
		option := []string{"yes", "yes", "yes", "yes", "yes", "no", "no", "no", "abstain", "abstain"}[i%10]
		return tx.KindVote, map[string]any{"from": acc.addr.Hex(), "proposal": "1", "option": option, "nonce": "1"}
	})
	t0 = time.Now()
	if err := c.blocks(ctx, votes, o.perBlock); err != nil {
		return err
	}
	took := time.Since(t0)
	fmt.Printf("  %d votes applied in %s (%.0f votes/s through FinalizeBlock)\n", len(votes), took.Round(time.Millisecond), float64(len(votes))/took.Seconds())

	// 4. Empty blocks and blocks of one transfer up to the one before the
	// end, timed, then the tally.
	end := proposedAt + int64(votingBlocks)
	var empty, oneTx []time.Duration
	for n := uint64(1); c.height < end; n++ {
		var txs [][]byte
		if n%2 == 0 {
			txs = sign([]account{proposer}, p.ChainID, func(int, account) (tx.Kind, map[string]any) {
				return tx.KindTransfer, map[string]any{"from": proposer.addr.Hex(), "to": accounts[0].addr.Hex(), "amount": "1", "nonce": strconv.FormatUint(n/2+1, 10)}
			})
		}
		d, _, err := c.timed(ctx, txs)
		if err != nil {
			return err
		}
		if txs == nil {
			empty = append(empty, d)
		} else {
			oneTx = append(oneTx, d)
		}
	}
	d, events, err := c.timed(ctx, nil)
	if err != nil {
		return err
	}
	status := ""
	for _, ev := range events {
		for _, at := range ev.Attributes {
			if ev.Type == app.EventProposal && at.Key == "status" {
				status = at.Value
			}
		}
	}
	base := median(empty)
	fmt.Printf("\nresults\n")
	fmt.Printf("  block that tallies %d voters (and executes): %s, proposal now %q\n", o.voters, d.Round(time.Microsecond), status)
	fmt.Printf("  empty block (median of %d): %s; block of one transfer (median of %d): %s\n",
		len(empty), base.Round(time.Microsecond), len(oneTx), median(oneTx).Round(time.Microsecond))
	fmt.Printf("  ratio tally block / empty block: %.2f (target at most 2.0); / one-transfer block: %.2f\n",
		float64(d)/float64(base), float64(d)/float64(median(oneTx)))
	fmt.Printf("  tally time: %s (target under 1 s): the tally is kept as votes arrive, so ending the vote reads one record\n", d.Round(time.Microsecond))
	return nil
}

// chain drives the app block by block.
type chain struct {
	app    *app.App
	height int64
}

func (c *chain) blocks(ctx context.Context, txs [][]byte, per int) error {
	for chunk := range slices.Chunk(txs, per) {
		if _, _, err := c.timed(ctx, chunk); err != nil {
			return err
		}
	}
	return nil
}

// timed finalizes and commits one block and returns how long that took.
func (c *chain) timed(ctx context.Context, txs [][]byte) (time.Duration, []abci.Event, error) {
	c.height++
	t0 := time.Now()
	res, err := c.app.FinalizeBlock(ctx, &abci.FinalizeBlockRequest{Height: c.height, Txs: txs, Time: time.Unix(c.height, 0)})
	if err != nil {
		return 0, nil, err
	}
	if _, err := c.app.Commit(ctx, nil); err != nil {
		return 0, nil, err
	}
	d := time.Since(t0)
	for i, r := range res.TxResults {
		if r.Code != 0 {
			return 0, nil, fmt.Errorf("block %d tx %d: code %d %s", c.height, i, r.Code, r.Log)
		}
	}
	return d, res.Events, nil
}

func keys(n int) []account {
	out := make([]account, n)
	parallel(n, func(i int) {
		k, err := crypto.GenerateKey()
		if err != nil {
			panic(err)
		}
		out[i] = account{k, crypto.PubkeyToAddress(k.PublicKey)}
	})
	return out
}

func sign(accounts []account, chainID uint64, msg func(int, account) (tx.Kind, map[string]any)) [][]byte {
	out := make([][]byte, len(accounts))
	parallel(len(accounts), func(i int) {
		kind, m := msg(i, accounts[i])
		env, err := tx.Sign(accounts[i].key, kind, m, chainID)
		if err != nil {
			panic(err)
		}
		if out[i], err = tx.Encode(env); err != nil {
			panic(err)
		}
	})
	return out
}

func parallel(n int, fn func(int)) {
	var wg sync.WaitGroup
	workers := runtime.NumCPU()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
