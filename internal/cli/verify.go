package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
)

// verify re-checks every forge action in a stopped node's chain against
// the delegations in force at its height (app.Audit) and prints each one
// the chain accepted without authority.
func verify(ctx context.Context, args []string, out io.Writer) error {
	fl := flag.NewFlagSet("verify", flag.ContinueOnError)
	data := fl.String("data", envOr("DFORGE_DATA", "./data"), "data directory of a stopped node (env DFORGE_DATA)")
	if help, err := parseFlags(fl, args); help || err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return Verify(ctx, *data, log, out)
}

// ErrForged is a chain whose audit found transactions the rules refuse.
var ErrForged = errors.New("the chain holds transactions its rules refuse")

// Verify audits the chain in dataDir, whose node must be stopped.
func Verify(ctx context.Context, dataDir string, log *slog.Logger, out io.Writer) error {
	hist, err := chain.OpenHistory(filepath.Join(dataDir, "chain"), log)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer hist.Close()
	gen, err := hist.Genesis(ctx)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	st, err := hist.Status(ctx)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	validators := make([]abci.ValidatorUpdate, len(gen.Genesis.Validators))
	for i, v := range gen.Genesis.Validators {
		validators[i] = abci.ValidatorUpdate{Power: v.Power, PubKeyType: v.PubKey.Type(), PubKeyBytes: v.PubKey.Bytes()}
	}
	sum, err := app.Audit(ctx, gen.Genesis.AppState, validators, recordedBlocks(ctx, hist, st.SyncInfo.LatestBlockHeight), func(f app.AuditFailure) {
		fmt.Fprintf(out, "FAIL height %d tx %d %s: %s %s for %s signed by %s: %s\n", f.Height, f.Index, f.Hash, f.Kind, f.Action, f.Actor, f.Signer, f.Reason)
	})
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	fmt.Fprintf(out, "checked %d blocks, %d forge actions: %d failed\n", sum.Blocks, sum.ForgeActions, sum.Failures)
	if sum.Failures > 0 {
		return fmt.Errorf("verify: %w: %d", ErrForged, sum.Failures)
	}
	return nil
}

// recordedBlocks reads blocks 1 to last with the codes their node
// recorded.
func recordedBlocks(ctx context.Context, hist *node.History, last int64) func() (app.RecordedBlock, bool, error) {
	height := int64(0)
	return func() (app.RecordedBlock, bool, error) {
		if height >= last {
			return app.RecordedBlock{}, false, nil
		}
		height++
		b, err := hist.Block(ctx, &height)
		if err != nil {
			return app.RecordedBlock{}, false, err
		}
		res, err := hist.BlockResults(ctx, &height)
		if err != nil {
			return app.RecordedBlock{}, false, err
		}
		rb := app.RecordedBlock{Height: height, Txs: make([][]byte, len(b.Block.Txs)), Codes: make([]uint32, len(res.TxResults))}
		for i, raw := range b.Block.Txs {
			rb.Txs[i] = raw
		}
		for i, r := range res.TxResults {
			rb.Codes[i] = r.Code
		}
		return rb, true, nil
	}
}
