package app

import (
	"context"
	"encoding/hex"
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/crypto/tmhash"

	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The audit (dforge verify): anyone can check that every forge action a
// chain committed was signed by its actor or under a delegation in force
// at its height. It replays the blocks from genesis through a fresh state
// machine, which applies the rules of each height, and compares each
// transaction's outcome with the one its node recorded: a forge action the
// chain accepted that the rules refuse was forced into a block.

// RecordedBlock is one committed block as its node recorded it: the
// transactions and the result code each got.
type RecordedBlock struct {
	Height int64
	Txs    [][]byte
	Codes  []uint32
}

// AuditFailure is a transaction the chain accepted that the rules refuse
// (most often a forge action without its actor's authority), or refused
// though the rules accept it.
type AuditFailure struct {
	Height   int64
	Index    int
	Hash     string
	Kind     string
	Actor    string
	Signer   string
	Action   string
	Recorded uint32 // the code the chain recorded
	Replayed uint32 // the code the rules give
	Reason   string
}

// AuditSummary counts what an audit checked.
type AuditSummary struct {
	Blocks       int64
	ForgeActions int
	Failures     int
}

// Audit replays the chain of genesis (its app_state and validators)
// through blocks, reporting each transaction whose replayed outcome
// differs from the recorded one.
func Audit(ctx context.Context, genesis []byte, validators []abci.ValidatorUpdate, blocks func() (RecordedBlock, bool, error), report func(AuditFailure)) (AuditSummary, error) {
	a, err := New(state.OpenMemory())
	if err != nil {
		return AuditSummary{}, err
	}
	if _, err := a.InitChain(ctx, &abci.InitChainRequest{AppStateBytes: genesis, Validators: validators, InitialHeight: 1}); err != nil {
		return AuditSummary{}, fmt.Errorf("audit: genesis: %w", err)
	}
	var sum AuditSummary
	for {
		b, ok, err := blocks()
		if err != nil || !ok {
			return sum, err
		}
		res, err := a.FinalizeBlock(ctx, &abci.FinalizeBlockRequest{Height: b.Height, Txs: b.Txs})
		if err != nil {
			return sum, fmt.Errorf("audit: replay block %d: %w", b.Height, err)
		}
		if _, err := a.Commit(ctx, &abci.CommitRequest{}); err != nil {
			return sum, fmt.Errorf("audit: commit block %d: %w", b.Height, err)
		}
		sum.Blocks++
		for i, raw := range b.Txs {
			f, forgeAction := a.auditTx(raw, b, i, res.TxResults[i].Code)
			if forgeAction {
				sum.ForgeActions++
			}
			if f != nil {
				sum.Failures++
				report(*f)
			}
		}
	}
}

// auditTx compares one transaction's recorded and replayed outcomes.
func (a *App) auditTx(raw []byte, b RecordedBlock, i int, replayed uint32) (*AuditFailure, bool) {
	t, err := a.verify(raw)
	isForge := err == nil && t.Kind == tx.KindForge
	// Two refusals for different reasons change nothing; what matters is
	// a transaction accepted that the rules refuse, or the reverse.
	if i >= len(b.Codes) || (b.Codes[i] == 0) == (replayed == 0) {
		return nil, isForge
	}
	f := &AuditFailure{Height: b.Height, Index: i, Hash: hex.EncodeToString(tmhash.Sum(raw)), Recorded: b.Codes[i], Replayed: replayed,
		Reason: fmt.Sprintf("recorded code %d (%s), the rules give %d (%s)", b.Codes[i], tx.CodeName(b.Codes[i]), replayed, tx.CodeName(replayed))}
	if err == nil {
		f.Kind, f.Signer = string(t.Kind), t.From.Hex()
		if isForge {
			f.Actor, f.Action = t.Actor.Hex(), t.Action
		}
	}
	return f, isForge
}
