package app

import (
	"math"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// handler applies one verified transaction of its kind on kv, after its
// nonce was used; height is the block it is applied in. A rule violation
// comes back as a *tx.Error (each module's TxError gives it its code).
type handler func(a *App, kv state.KV, t tx.Tx, height int64) ([]abci.Event, error)

// handlers routes every transaction kind to the module that owns it;
// enabling a kind is one entry (TestEveryKindHasAHandler).
var handlers = map[tx.Kind]handler{
	tx.KindTransfer:        applyTransfer,
	tx.KindTip:             applyTransfer,
	tx.KindTreasuryDeposit: applyTreasuryDeposit,
	tx.KindStake:           (*App).applyStake,
	tx.KindUnstake:         (*App).applyUnstake,
	tx.KindClaimUsername:   applyClaimUsername,
	tx.KindForge:           (*App).applyForge,
	tx.KindPropose:         (*App).propose,
	tx.KindVote:            (*App).vote,
	tx.KindRegisterNode:    registerNode,
	tx.KindBountyFund:      applyBountyFund,
	tx.KindBountyRefund:    applyBountyRefund,
	tx.KindGrantApprove:    applyGrantApprove,
	tx.KindDelegate:        applyDelegate,
	tx.KindUndelegate:      applyUndelegate,
}

// applyOn applies a verified transaction: it first consumes its sender's
// nonce, so a replay fails, then hands it to its kind's handler.
func (a *App) applyOn(kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	if err := ledger.UseNonce(kv, t.From, t.Nonce); err != nil {
		return nil, ledger.TxError(err)
	}
	h, ok := handlers[t.Kind]
	if !ok {
		return nil, tx.NewError(tx.CodeUnknownType, "%s transactions are not enabled on this chain yet", t.Kind)
	}
	return h(a, kv, t, height)
}

// applyTransfer applies a Transfer or a Tip.
func applyTransfer(_ *App, kv state.KV, t tx.Tx, _ int64) ([]abci.Event, error) {
	if err := ledger.Transfer(kv, t.From, t.To, t.Amount); err != nil {
		return nil, ledger.TxError(err)
	}
	return []abci.Event{ledger.TransferEvent(t)}, nil
}

// applyTreasuryDeposit is a transfer to the treasury.
func applyTreasuryDeposit(_ *App, kv state.KV, t tx.Tx, _ int64) ([]abci.Event, error) {
	if err := ledger.Transfer(kv, t.From, TreasuryAddress, t.Amount); err != nil {
		return nil, ledger.TxError(err)
	}
	t.To = TreasuryAddress
	return []abci.Event{ledger.TransferEvent(t)}, nil
}

func (a *App) applyStake(kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	if err := ledger.Stake(kv, t.From, t.Amount); err != nil {
		return nil, ledger.TxError(err)
	}
	if err := a.stakeChanged(kv, t.From, height); err != nil {
		return nil, err
	}
	return []abci.Event{ledger.StakeEvent(t)}, nil
}

func (a *App) applyUnstake(kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	maturesAt := uint64(height) + a.params.UnbondingBlocks
	if height <= 0 || maturesAt > math.MaxInt64 {
		return nil, tx.NewError(tx.CodeInvalidField, "the unbonding period from height %d is out of range", height)
	}
	if err := ledger.Unstake(kv, t.From, t.Amount, maturesAt); err != nil {
		return nil, ledger.TxError(err)
	}
	if err := a.stakeChanged(kv, t.From, height); err != nil {
		return nil, err
	}
	return []abci.Event{ledger.UnstakeEvent(t, maturesAt)}, nil
}

// stakeChanged gives governance the account's new stake, whose history
// voting power is snapshotted from.
func (a *App) stakeChanged(kv state.KV, addr common.Address, height int64) error {
	staked, err := ledger.Staked(kv, addr)
	if err != nil {
		return err
	}
	return gov.StakeChanged(kv, a.params.Reputation, addr, uint64(height), staked)
}

func applyClaimUsername(_ *App, kv state.KV, t tx.Tx, _ int64) ([]abci.Event, error) {
	previous, err := names.Claim(kv, t.From, t.Username)
	if err != nil {
		return nil, names.TxError(err)
	}
	// Claiming one's default name in any case gives back the default.
	if t.Username, err = names.Of(kv, t.From); err != nil {
		return nil, err
	}
	return []abci.Event{names.ClaimEvent(t, previous)}, nil
}
